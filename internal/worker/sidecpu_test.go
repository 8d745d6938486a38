package worker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// TestNoteSideCPU: a side that burned CPU says how much, in seconds and as
// a share of one CPU over its own wall time.
func TestNoteSideCPU(t *testing.T) {
	var buf bytes.Buffer
	em := workload.NewJSONEmitter(&buf)
	sum := 0.0
	err := noteSideCPU(em, func() error {
		for i := 0; i < 50_000_000; i++ { // some 50 ms of work: CPU time that a busy host cannot take away
			sum += float64(i % 7)
		}
		return nil
	})
	if err != nil || sum == 0 {
		t.Fatal(err)
	}
	notes := map[string]float64{}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var m workload.Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(m.Text, 64)
		if err != nil {
			t.Fatalf("note %s = %q: %v", m.Key, m.Text, err)
		}
		notes[m.Key] = v
	}
	if notes[NoteCPUSeconds] <= 0 || notes[NoteCPUPercent] <= 0 {
		t.Errorf("notes %v: want positive %s and %s", notes, NoteCPUSeconds, NoteCPUPercent)
	}
}
