package tables

import (
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/boxtax/boxtax/internal/report"
)

// WriteCSV prints one row per sample with its run's levels (tidy data):
// study_id, host (the device label: run --host-label, else the hostname),
// run_id, seq, workload, env, one column per other factor, rep,
// warmup, status, instance (0: the run's figure; 1..N: one of N concurrent
// instances), metric, value, unit.
func WriteCSV(w io.Writer, r *report.Report) error {
	return writeTidy(w, r.Factors(), r)
}

// WriteDevicesCSV is the tidy CSV of every device's study under one header
// (the union of their factors); the host column names the device.
func WriteDevicesCSV(w io.Writer, d *report.Devices) error {
	var factors []string
	reports := make([]*report.Report, len(d.Devices))
	for i, dev := range d.Devices {
		reports[i] = dev.Report
		for _, f := range dev.Report.Factors() {
			if !slices.Contains(factors, f) {
				factors = append(factors, f)
			}
		}
	}
	sort.Strings(factors)
	return writeTidy(w, factors, reports...)
}

// writeTidy prints the tidy CSV of reports, with a column for each of
// factors.
func writeTidy(w io.Writer, factors []string, reports ...*report.Report) error {
	cw := report.NewCSVWriter(w)
	if err := cw.Write(tidyHeader(factors)); err != nil {
		return err
	}
	for _, r := range reports {
		for _, row := range tidyRows(r, factors) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// tidyHeader is the header of the tidy CSV with the given factor columns.
func tidyHeader(factors []string) []string {
	head := []string{"study_id", "host", "run_id", "seq", "workload", "env"}
	head = append(head, factors...)
	return append(head, "rep", "warmup", "status", "instance", "metric", "value", "unit")
}

// tidyRows are the report's rows of the tidy CSV, with a column for each
// of the given factors (empty where a run has no level of it).
func tidyRows(r *report.Report, factors []string) [][]string {
	host := r.Host().Label()
	var out [][]string
	for _, ts := range r.Samples() {
		row := []string{strconv.FormatInt(r.Study.ID, 10), host, strconv.FormatInt(ts.Run.ID, 10), strconv.Itoa(ts.Run.Seq),
			ts.Run.Workload, ts.Run.Env}
		for _, f := range factors {
			row = append(row, ts.Run.Levels[f])
		}
		row = append(row, strconv.Itoa(ts.Run.Rep), strconv.FormatBool(ts.Run.Warmup), ts.Run.Status,
			strconv.Itoa(ts.Sample.Instance), ts.Sample.Metric, strconv.FormatFloat(ts.Sample.Value, 'g', -1, 64), ts.Sample.Unit)
		out = append(out, row)
	}
	return out
}
