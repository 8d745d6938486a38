package rt

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestParams(t *testing.T) {
	workloadtest.CheckParams(t, Periodic, []workloadtest.ParamCase{
		{Name: "defaults"},
		{Name: "strings", Params: workload.Params{"frequency_hz": "50", "occupancy_pct": "60", "priority": "80", "duration": "2s"}},
		{Name: "other policy", Params: workload.Params{"policy": "other", "priority": 0}},
		{Name: "timed", Params: workload.Params{"work": "timed"}},
		{Name: "bad policy", Params: workload.Params{"policy": "deadline"}, WantErr: "policy"},
		{Name: "priority too high", Params: workload.Params{"priority": 100}, WantErr: "priority"},
		{Name: "priority zero for fifo", Params: workload.Params{"priority": 0}, WantErr: "priority"},
		{Name: "occupancy 100", Params: workload.Params{"occupancy_pct": 100}, WantErr: "occupancy_pct"},
		{Name: "zero frequency", Params: workload.Params{"frequency_hz": 0}, WantErr: "frequency_hz"},
		{Name: "shorter than a slice", Params: workload.Params{"duration": "5ms"}, WantErr: "duration"},
		{Name: "too long to keep", Params: workload.Params{"duration": "1000h", "frequency_hz": 1000}, WantErr: "MiB"},
		{Name: "bad cpu", Params: workload.Params{"cpu": -2}, WantErr: "cpu"},
		{Name: "bad work", Params: workload.Params{"work": "lots"}, WantErr: "calibrated, timed or none"},
		{Name: "no work", Params: workload.Params{"work": "none", "frequency_hz": 1000}},
	})
	workloadtest.CheckParams(t, PeriodicIO, []workloadtest.ParamCase{
		{Name: "io defaults"},
		{Name: "no work for io", Params: workload.Params{"work": "none"}, WantErr: "rt.periodic only"},
		{Name: "bad frame", Params: workload.Params{"frame": "640by480"}, WantErr: "frame"},
		{Name: "bad sync", Params: workload.Params{"sync": "always"}, WantErr: "sync"},
		{Name: "fdatasync", Params: workload.Params{"sync": "fdatasync", "frame": "320x240"}},
	})
}

func TestRequirements(t *testing.T) {
	tests := []struct {
		params  workload.Params
		caps    []string
		runtime int64
	}{
		{params: workload.Params{}, caps: []string{"SYS_NICE", "IPC_LOCK"}, runtime: 950000},
		{params: workload.Params{"policy": "rr", "lock_memory": false}, caps: []string{"SYS_NICE"}, runtime: 950000},
		{params: workload.Params{"policy": "other"}, caps: []string{"IPC_LOCK"}},
		{params: workload.Params{"policy": "other", "lock_memory": "false"}},
	}
	for _, tt := range tests {
		p, _ := workload.Check(Periodic.Info(), tt.params)
		got := workloadtest.Requirements(t, Periodic, p)
		if !slices.Equal(got.CapAdd, tt.caps) || got.CPURealtimeRuntimeUs != tt.runtime || len(got.Ulimits) != 0 {
			t.Errorf("%v: requirements %+v, want caps %v and runtime %d", tt.params, got, tt.caps, tt.runtime)
		}
	}
}

// TestLoopAllocatesNothing runs the measuring loop itself and checks that it
// allocates nothing: an allocation could start a garbage collection whose
// stop-the-world would wait for the real-time thread.
func TestLoopAllocatesNothing(t *testing.T) {
	tk := &task{periodNs: 200_000, none: true}
	tk.rec = newRecord(50, false, true)
	allocs := testing.AllocsPerRun(5, func() {
		tk.n = 50
		tk.wakeLoop()
	})
	if allocs != 0 || tk.errno != 0 || tk.n != 50 {
		t.Errorf("work none: the loop allocated %v times a run (errno %v, %d slices)", allocs, tk.errno, tk.n)
	}
	for _, io := range []bool{false, true} {
		c := config{periodNs: 200_000, occupancyPct: 50, io: io, frameWidth: 64, frameHeight: 48, frameBytes: 2 * 64 * 48, sync: SyncNone}
		tk := &task{periodNs: c.periodNs, terms: 1000}
		tk.rec = newRecord(50, io, false)
		if io {
			fs, err := newFrameSink(t.TempDir(), c)
			if err != nil {
				t.Fatal(err)
			}
			defer fs.close()
			tk.frames = fs
		}
		allocs := testing.AllocsPerRun(5, func() {
			tk.n = 50
			tk.loop()
		})
		if allocs != 0 || tk.errno != 0 {
			t.Errorf("io=%v: the loop allocated %v times a run (errno %v)", io, allocs, tk.errno)
		}
	}
}

func TestRunRecordsEverySlice(t *testing.T) {
	for _, work := range []string{WorkCalibrated, WorkTimed} {
		t.Run(work, func(t *testing.T) {
			p, _ := workload.Check(Periodic.Info(), workload.Params{
				"frequency_hz": 200, "duration": "500ms", "policy": "other", "lock_memory": false, "work": work, "occupancy_pct": 50,
			})
			r := workloadtest.Run(t, context.Background(), Periodic, p, workload.Env{ScratchDir: t.TempDir()})
			want := []string{"oh1_ns", "work_ns", "oh2_ns", "sleep_ns", "latency_ns"}
			if got := r.SeriesOrder; !slices.Equal(got, want) {
				t.Fatalf("series %v, want %v", got, want)
			}
			for name, v := range r.SeriesValues {
				if len(v) != 100 {
					t.Errorf("%s has %d values, want 100 slices", name, len(v))
				}
				for i, x := range v {
					if x < 0 || math.IsNaN(x) {
						t.Fatalf("%s[%d] = %v", name, i, x)
					}
				}
			}
			// What each mode promises, whatever else the machine runs (its
			// speed is bench/'s): timed work lasts at least its share of the
			// slice; calibrated work is a positive count of terms, sized to
			// that share at the cost calibration saw.
			for i, w := range r.SeriesValues["work_ns"] {
				if work == WorkTimed && w < 2.5e6 || w <= 0 {
					t.Fatalf("work_ns[%d] = %.0f, want at least the 2.5e6 ns share for timed and more than 0", i, w)
				}
			}
			if work == WorkCalibrated {
				checkWorkTerms(t, r.Notes["work_terms"], 2_500_000)
			}
			if got := r.Samples["slices"]; len(got) != 1 || got[0] != 100 {
				t.Errorf("slices sample %v", got)
			}
			if r.Notes["policy"] != "other" {
				t.Errorf("policy note %q", r.Notes["policy"])
			}
		})
	}
}

func TestRunFIFO(t *testing.T) {
	if !sched.HasCapability(23) {
		t.Skip("no CAP_SYS_NICE: real-time scheduling is tested as root")
	}
	p, _ := workload.Check(Periodic.Info(), workload.Params{"frequency_hz": 500, "duration": "400ms", "cpu": 0})
	r := workloadtest.Run(t, context.Background(), Periodic, p, workload.Env{ScratchDir: t.TempDir()})
	if r.Notes["policy"] != "fifo 49" || !strings.HasPrefix(r.Notes["cpu"], "0 (pinned)") {
		t.Errorf("notes %v", r.Notes)
	}
	if len(r.SeriesValues["latency_ns"]) != 200 {
		t.Errorf("%d slices", len(r.SeriesValues["latency_ns"]))
	}
	// The calibrated work: a count of terms sized to its 80 % of 2 ms. How
	// long the slices' work then took depends on what else runs on the
	// machine (bench/rt-vs-cyclictest.sh measures it), so it is not checked.
	checkWorkTerms(t, r.Notes["work_terms"], 1_600_000)
	for i, w := range r.SeriesValues["work_ns"] {
		if w <= 0 {
			t.Fatalf("work_ns[%d] = %v", i, w)
		}
	}
}

// checkWorkTerms checks the work_terms note of a calibrated run: a positive
// count of terms for the slice's share targetNs, whose calibrated time fits
// that share to within one term.
func checkWorkTerms(t *testing.T, note string, targetNs int64) {
	t.Helper()
	var terms int
	var calibratedNs, gotTargetNs int64
	if _, err := fmt.Sscanf(note, "%d Leibniz terms a slice, %d ns when calibrated (target %d ns)", &terms, &calibratedNs, &gotTargetNs); err != nil {
		t.Fatalf("work_terms note %q: %v", note, err)
	}
	perTermNs := float64(calibratedNs) / float64(terms)
	if terms <= 0 || gotTargetNs != targetNs || calibratedNs > targetNs || float64(calibratedNs) < float64(targetNs)-2*perTermNs-1 {
		t.Errorf("work_terms %q: want a positive count whose calibrated time fits the %d ns target to a term", note, targetNs)
	}
}

func TestRunIO(t *testing.T) {
	dir := t.TempDir()
	p, _ := workload.Check(PeriodicIO.Info(), workload.Params{
		"frequency_hz": 50, "duration": "400ms", "policy": "other", "lock_memory": false, "sync": "fdatasync", "frame": "320x240",
	})
	r := workloadtest.Run(t, context.Background(), PeriodicIO, p, workload.Env{ScratchDir: dir})
	want := []string{"oh1_ns", "capture_ns", "write_ns", "work_ns", "oh2_ns", "sleep_ns", "latency_ns"}
	if got := r.SeriesOrder; !slices.Equal(got, want) {
		t.Fatalf("series %v, want %v", got, want)
	}
	if len(r.SeriesValues["write_ns"]) != 20 || r.Samples["write_mean_ns"][0] <= 0 {
		t.Errorf("write: %d slices, mean %v", len(r.SeriesValues["write_ns"]), r.Samples["write_mean_ns"])
	}
	if !strings.Contains(r.Notes["frame_source"], "320x240, 153600 bytes") || !strings.Contains(r.Notes["frame_file"], "sync fdatasync") {
		t.Errorf("notes %v", r.Notes)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("frame file left behind: %v", left)
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	p, _ := workload.Check(Periodic.Info(), workload.Params{"duration": "1h", "policy": "other", "lock_memory": false, "frequency_hz": 10})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := workload.Run(ctx, Periodic, p, workload.Env{}, &workloadtest.Recorder{})
	// An hour's run returns on the cancel, well within a minute however
	// busy the machine (the bound catches a run that ignores it, not speed).
	if err == nil || time.Since(start) > time.Minute {
		t.Errorf("Run returned %v after %v", err, time.Since(start))
	}
}

func TestSummarize(t *testing.T) {
	r := record{
		oh1: []float64{100, 100, 100, 100}, work: []float64{800, 800, 1200, 800},
		oh2: []float64{50, 50, 50, 50}, sleep: []float64{50, 50, 0, 50},
		latency: []float64{10, 20, 30, 400},
	}
	got := map[string]float64{}
	for _, s := range summarize(r, 1000, 1, 0) {
		got[s.metric] = s.value
	}
	want := map[string]float64{
		"violations_pct": 25, "latency_max_us": 0.4, "latency_p50_us": 0.025, "work_mean_ns": 900, "slices": 4,
		"slice_used_pct": 100 * (960 + 970 + 1380 + 1350) / 4.0 / 1000,
	}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}
