package monitor

import (
	"math"
	"strings"
	"testing"
	"time"
)

// recordedTrace is a trace as the sampler records it: one value per tick.
func recordedTrace(series map[string][]float64) Trace {
	tr := Trace{Start: time.Unix(0, 0), Series: series, Units: map[string]string{}}
	for name := range series {
		tr.Units[name] = "%"
	}
	return tr
}

// TestDisturbedClassifiesRecordedRuns: the classifier on monitor samples
// as runs recorded them; the first rows are ticks of /proc/stat on this
// project's VM (iowait and steal in percent of all CPUs), quiet and with
// other engineers' tests keeping both CPUs busy.
func TestDisturbedClassifiesRecordedRuns(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		steal    []float64
		iowait   []float64
		before   string
		ownIO    bool
		wantWhy  string // the cause, "" for a run that is not disturbed
		wantText string
	}{
		{"quiet host", []float64{0, 0, 0, 0}, []float64{0, 0.5, 0, 0}, "3.1", false, "", ""},
		{"neighbours busy, no steal reported", []float64{0, 0, 0}, []float64{0, 0, 0.5}, "8.0", false, "", ""},
		{"steal 14 % over the run", []float64{12, 16, 14, 14}, []float64{0, 0, 0, 0}, "2", false, CauseSteal, "the hypervisor took 14.0% of the CPUs' time during the run (limit 10%)"},
		{"a burst of steal below the mean's limit", []float64{0, 30, 0, 0}, []float64{0, 0, 0, 0}, "2", false, "", ""},
		{"iowait of another program", []float64{0, 0}, []float64{25, 35}, "2", false, CauseIOWait, "waited on another program's I/O 30.0%"},
		{"iowait of a disk workload is its own", []float64{0, 0}, []float64{25, 35}, "2", true, "", ""},
		{"busy up to the start", []float64{0}, []float64{0}, "87.5", false, CauseBusy, "kept the host 88% busy up to the run's start (limit 50%)"},
		{"nothing seen", nil, nil, "", false, "", ""},
		{"steal comes first", []float64{11}, []float64{50}, "90", false, CauseSteal, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			series := map[string][]float64{}
			if tc.steal != nil {
				series["cpu_steal_pct"] = append(tc.steal, nan) // a tick without a reading is skipped
				series["cpu_iowait_pct"] = append(tc.iowait, nan)
			}
			h := RunHostOf(recordedTrace(series), map[string]string{"host_busy_pct_before": tc.before}, tc.ownIO)
			why := DefaultDisturbLimits.Disturbed(h)
			if cause, _, _ := strings.Cut(why, ":"); cause != tc.wantWhy {
				t.Fatalf("Disturbed(%+v) = %q, want cause %q", h, why, tc.wantWhy)
			}
			if !strings.Contains(why, tc.wantText) {
				t.Errorf("reason %q does not say %q", why, tc.wantText)
			}
			if got := Off.Disturbed(h); got != "" {
				t.Errorf("with the limits off: %q", got)
			}
		})
	}
}
