package monitor

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// MeterLog is an external power meter's log: a CSV of time and watts, one
// row per reading, written by the meter's own software while the study runs.
// Time is Unix seconds (fractions allowed) or RFC 3339. A header row is
// allowed. Each run's energy integrates the rows inside its time window.
type MeterLog struct{ Path string }

func (m MeterLog) Name() string { return "meter-log" }

// Watts is unknown per tick: the log is read after the run.
func (m MeterLog) Watts(time.Time, []Reading) (float64, bool) { return 0, false }

// Energy integrates the log's rows between the trace's start and end.
func (m MeterLog) Energy(tr Trace) *Energy {
	rows, err := m.read()
	if err != nil {
		return nil
	}
	joules, secs := 0.0, 0.0
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.t.Before(tr.Start) || b.t.After(tr.End) {
			continue
		}
		dt := b.t.Sub(a.t).Seconds()
		joules += (a.w + b.w) / 2 * dt
		secs += dt
	}
	if secs == 0 {
		return nil
	}
	return &Energy{Source: "meter-log", Joules: joules, AvgWatts: joules / secs}
}

type meterRow struct {
	t time.Time
	w float64
}

// Check reads the log once and says what is wrong with it, naming the line.
func (m MeterLog) Check() error {
	_, err := m.read()
	return err
}

func (m MeterLog) read() ([]meterRow, error) {
	f, err := os.Open(m.Path)
	if err != nil {
		return nil, fmt.Errorf("power meter log: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	var rows []meterRow
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("power meter log %s: %w", m.Path, err)
		}
		if len(rec) < 2 {
			return nil, fmt.Errorf("power meter log %s:%d: want time,watts", m.Path, line)
		}
		t, terr := parseMeterTime(rec[0])
		w, werr := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		if terr != nil || werr != nil {
			if line == 1 {
				continue // a header
			}
			return nil, fmt.Errorf("power meter log %s:%d: want time (Unix seconds or RFC 3339),watts; got %q", m.Path, line, strings.Join(rec, ","))
		}
		rows = append(rows, meterRow{t, w})
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("power meter log %s has fewer than 2 readings", m.Path)
	}
	return rows, nil
}

func parseMeterTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)), nil
	}
	return time.Parse(time.RFC3339Nano, s)
}
