package disk

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestSteadyJudge(t *testing.T) {
	rule := steadyRule{window: 3, bandPct: 20}
	tests := []struct {
		name       string
		values     []float64
		steady     bool
		wantMean   float64
		wantFirst  int
		wantRangeP float64
	}{
		{"too few passes", []float64{100, 100}, false, 100, 1, 0},
		{"flat window", []float64{300, 1000, 1000, 1000}, true, 1000, 2, 0},
		{"within the band, no trend", []float64{1000, 1100, 900}, true, 1000, 1, 20},
		{"range past the band", []float64{989, 534, 713}, false, 745.33, 1, 61.0},
		// this morning's rewrite passes under another study's writes: a
		// steady climb is not steady even when its range would do
		{"climbing: slope past half the band", []float64{100, 110, 120}, false, 110, 1, 18.2},
		{"the last window counts", []float64{362, 355, 406, 514, 294, 493, 783, 1019, 937, 770}, false, 908.67, 8, 27.4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rule.judge(tt.values)
			if s.steady != tt.steady || math.Abs(s.windowMean-tt.wantMean) > 0.01 || s.windowFirst != tt.wantFirst || math.Abs(s.rangePct-tt.wantRangeP) > 0.1 {
				t.Errorf("judge(%v) = %+v; want steady %v, mean %.2f, first %d, range %.1f%%", tt.values, s, tt.steady, tt.wantMean, tt.wantFirst, tt.wantRangeP)
			}
		})
	}
}

func TestSlope(t *testing.T) {
	for _, tt := range []struct {
		values []float64
		want   float64
	}{{[]float64{1, 2, 3}, 1}, {[]float64{5, 5, 5, 5}, 0}, {[]float64{3, 1}, -2}, {[]float64{7}, 0}} {
		if got := slope(tt.values); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("slope(%v) = %g, want %g", tt.values, got, tt.want)
		}
	}
}

func TestSteadyParams(t *testing.T) {
	tests := []struct {
		name    string
		w       workload.Workload
		params  workload.Params
		wantErr string
	}{
		{"seq window past passes", Seq, workload.Params{"max_passes": 2, "steady_window": 3}, "steady_window"},
		{"seq no passes", Seq, workload.Params{"max_passes": 0}, "max_passes"},
		{"rand zero band", Rand, workload.Params{"steady_band": 0}, "steady_band"},
		{"rand one pass, any window", Rand, workload.Params{"max_passes": 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workloadtest.CheckErr(t, workload.Validate(tt.w, tt.params), tt.wantErr)
		})
	}
}

// TestRunRecordsSteadyState: every run records its passes and how they
// stood; one pass judges nothing; a band no pass can meet (0.0001 %) runs
// every pass and warns.
func TestRunRecordsSteadyState(t *testing.T) {
	tests := []struct {
		name       string
		w          workload.Workload
		params     workload.Params
		wantPasses int // passes in read_passes; 0: at least steady_window
		wantState  string
		wantWarn   bool
		anyWarn    bool // a tiny file on a shared disk may or may not settle: only the record is checked
	}{
		{"seq one pass", Seq, workload.Params{"size": "1MiB", "block_size": "64KiB", "max_passes": 1}, 1, "not judged", false, false},
		{"seq unreachable band", Seq, workload.Params{"size": "1MiB", "block_size": "64KiB", "max_passes": 4, "steady_band": 0.0001}, 4, "not steady in 4 passes", true, false},
		{"seq judged", Seq, workload.Params{"size": "1MiB", "block_size": "64KiB"}, 0, "passes", false, true},
		{"rand unreachable band", Rand, workload.Params{"size": "1MiB", "duration": "30ms", "max_passes": 4, "steady_band": 0.0001}, 4, "not steady in 4 passes", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := workloadtest.Check(t, tt.w.Info(), tt.params)
			var r workloadtest.Recorder
			if err := workload.Run(context.Background(), tt.w, p, workload.Env{ScratchDir: dir}, &r); err != nil {
				t.Fatal(err)
			}
			passes := len(strings.Fields(r.Notes["read_passes"]))
			if tt.wantPasses > 0 && passes != tt.wantPasses || tt.wantPasses == 0 && (passes < 3 || passes > 6) {
				t.Errorf("read_passes %q: %d passes, want %d", r.Notes["read_passes"], passes, tt.wantPasses)
			}
			if !strings.Contains(r.Notes["steady_state"], tt.wantState) {
				t.Errorf("steady_state = %q, want it to say %q", r.Notes["steady_state"], tt.wantState)
			}
			if _, warned := r.Notes["steady_warning"]; warned != tt.wantWarn && !tt.anyWarn {
				t.Errorf("steady_warning = %q, want one: %v", r.Notes["steady_warning"], tt.wantWarn)
			}
			assertEmpty(t, dir)
		})
	}
}

func TestNoteDirty(t *testing.T) {
	defer func(p string) { meminfoPath = p }(meminfoPath)
	meminfoPath = t.TempDir() + "/meminfo"
	testenv.WriteFile(t, meminfoPath, []byte("MemTotal: 100 kB\nDirty:       42520 kB\nWriteback:      8 kB\n"), 0o600)
	var r workloadtest.Recorder
	noteDirty(&r)
	if got := r.Notes["host_dirty_kB"]; got != "42528" {
		t.Errorf("host_dirty_kB = %q, want 42528 (Dirty + Writeback)", got)
	}
}
