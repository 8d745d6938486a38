package load

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestCPUParams(t *testing.T) {
	workloadtest.CheckParams(t, CPU, []workloadtest.ParamCase{
		{Name: "defaults"},
		{Name: "other policy", Params: workload.Params{"workers": 4, "duty_pct": 50, "period": "20ms", "policy": "other", "priority": 0}},
		{Name: "no workers", Params: workload.Params{"workers": 0}, WantErr: "workers"},
		{Name: "duty zero", Params: workload.Params{"duty_pct": 0}, WantErr: "duty_pct"},
		{Name: "duty above 100", Params: workload.Params{"duty_pct": 101}, WantErr: "duty_pct"},
		{Name: "period too short", Params: workload.Params{"period": "10us"}, WantErr: "period"},
		{Name: "priority zero for fifo", Params: workload.Params{"priority": 0}, WantErr: "priority"},
		{Name: "bad policy", Params: workload.Params{"policy": "batch"}, WantErr: "policy"},
		{Name: "negative duration", Params: workload.Params{"duration": "-1s"}, WantErr: "duration"},
	})
}

func TestCPURunsForItsDuty(t *testing.T) {
	p, _ := workload.Check(CPU.Info(), workload.Params{"workers": 1, "duty_pct": 50, "period": "20ms", "policy": "other", "priority": 0, "duration": "400ms"})
	start := time.Now()
	r := workloadtest.Run(t, context.Background(), CPU, p, workload.Env{})
	// It runs at least its duration (longer on a busy machine: the minute
	// only catches one that does not stop).
	if took := time.Since(start); took < 380*time.Millisecond || took > time.Minute {
		t.Errorf("ran for %v, want 400ms", took)
	}
	// Other processes can only take CPU from the worker: its share is
	// positive and at most its 50 % duty (with a margin for the
	// measurement), never a fixed fraction of it.
	if busy := r.Samples["busy_pct"]; len(busy) != 1 || busy[0] <= 0 || busy[0] > 55 {
		t.Errorf("busy_pct %v, want above 0 and at most about 50", busy)
	}
}

func TestCPUUntilStopped(t *testing.T) {
	policy, prio := "other", 0
	if sched.HasCapability(23) {
		policy, prio = "fifo", 10 // exercise the real-time path when we may
	}
	p, _ := workload.Check(CPU.Info(), workload.Params{"workers": 2, "duty_pct": 30, "period": "10ms", "policy": policy, "priority": prio})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// A load stopped by its context is not a failure: Run returns no error.
	r := workloadtest.Run(t, ctx, CPU, p, workload.Env{})
	if len(r.Samples["terms_per_s"]) != 1 {
		t.Errorf("samples %v", r.Samples)
	}
}

func TestCPURequirements(t *testing.T) {
	p, _ := workload.Check(CPU.Info(), nil)
	if got := workloadtest.Requirements(t, CPU, p); !slices.Equal(got.CapAdd, []string{"SYS_NICE"}) || got.CPURealtimeRuntimeUs == 0 {
		t.Errorf("fifo: %+v", got)
	}
	p, _ = workload.Check(CPU.Info(), workload.Params{"policy": "other", "priority": 0})
	if got := workloadtest.Requirements(t, CPU, p); len(got.CapAdd) != 0 {
		t.Errorf("other: %+v", got)
	}
}

func TestStressArgs(t *testing.T) {
	p, _ := workload.Check(StressNG.Info(), nil)
	c, err := workload.Parse(p, &stressConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := "--cpu 2 --cpu-load 80 --cpu-method pi --sched fifo --sched-prio 48 --timeout 0 --metrics-brief"
	if got := strings.Join(c.args(), " "); got != want {
		t.Errorf("args %q, want %q", got, want)
	}
}

func TestParseMetrics(t *testing.T) {
	for _, out := range []string{
		`stress-ng: metrc: [17376] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s
stress-ng: metrc: [17376]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)
stress-ng: metrc: [17376] cpu                1010      2.00      1.22      0.07       504.95         782.54`,
		`stress-ng: info:  [17376] cpu                1010      2.00      1.22      0.07       504.95         782.54`,
	} {
		ops, pct, ok := parseMetrics(out, 2)
		if !ok || ops != 504.95 || math.Abs(pct-32.25) > 1e-9 {
			t.Errorf("parsed %v %v %v", ops, pct, ok)
		}
	}
	if _, _, ok := parseMetrics("stress-ng: info: [1] dispatching hogs: 2 cpu", 2); ok {
		t.Error("parsed metrics from a line without them")
	}
}

func TestStressNG(t *testing.T) {
	testenv.RequireTool(t, "stress-ng", "stress-ng")
	// For its duration (stress-ng --timeout): it ends by itself and prints
	// its metrics however long its start takes on a busy machine.
	p, _ := workload.Check(StressNG.Info(), workload.Params{"workers": 1, "load_pct": 20, "policy": "other", "priority": 0, "duration": "1s"})
	r := workloadtest.Run(t, context.Background(), StressNG, p, workload.Env{})
	if v := r.Samples["bogo_ops_per_s"]; len(v) != 1 || v[0] <= 0 {
		t.Errorf("samples %v", r.Samples)
	}
	// Until stopped: the cancel stops it (SIGTERM). Whether it had started
	// its stressors and so printed metrics by then depends on the machine,
	// so only that it stops, and without a failure of its own, is checked.
	p, _ = workload.Check(StressNG.Info(), workload.Params{"workers": 1, "load_pct": 20, "policy": "other", "priority": 0})
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	var rec workloadtest.Recorder
	err := workload.Run(ctx, StressNG, p, workload.Env{}, &rec)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stopped stress-ng: %v, want it stopped without an error of its own", err)
	}
}

// recorder keeps what a workload emits.
