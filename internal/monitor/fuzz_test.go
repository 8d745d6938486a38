package monitor

import (
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// FuzzMeterLog: any power meter log is read or refused without a panic
// (issue 15: fuzzing). Seed corpus: testdata/fuzz/FuzzMeterLog and the
// cases below.
func FuzzMeterLog(f *testing.F) {
	f.Add([]byte("time,watts\n1700000000,3.1\n1700000000.5,3.3\n"))
	f.Add([]byte("2026-01-01T00:00:00Z,2.5\n2026-01-01T00:00:01Z,2.6\n"))
	f.Add([]byte("\"a\nb\",1\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := testenv.WriteFileIn(t, dir, "meter.csv", data, 0o644)
		rows, err := MeterLog{Path: path}.read()
		if err == nil && len(rows) < 2 {
			t.Fatalf("%d rows accepted", len(rows))
		}
	})
}
