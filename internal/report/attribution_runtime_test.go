package report

import (
	"math"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
)

// The runtimes preset has no podman-bridge without options: its first
// variant (runtime=runc) is the reference, and the other runtimes read as
// swaps, "switching to runtime=runsc (gVisor ...) changes it by".
func TestAttributionOfRuntimesTakesTheFirstVariantAsReference(t *testing.T) {
	st := store.Study{ID: 3, Name: "runtimes", Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 26, 21, 0, 0, 0, time.UTC), HostJSON: `{"hostname":"box","cpus":2}`, SpecYAML: "name: runtimes\n"}
	envs := []string{"native", "podman-bridge+runtime=runc", "podman-bridge+runtime=crun", "podman-bridge+runtime=runsc"}
	means := map[string]float64{"native": 1000, envs[1]: 990, envs[2]: 995, envs[3]: 700}
	var runs []store.Run
	var samples []store.Sample
	for rep, d := range []float64{-4, 0, 4} {
		for _, e := range envs {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: "test.cpu|env=" + e, Workload: "test.cpu", Env: e,
				Levels: map[string]string{"env": e}, Rep: rep, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: means[e] + d, Unit: "events/s"})
		}
	}
	r := Build(st, Layout{Baseline: "native", Envs: envs, Workloads: []string{"test.cpu"}}, runs, samples)
	if len(r.Attributions) != 1 {
		t.Fatalf("%d attributions, want 1 (runc the reference): %+v", len(r.Attributions), r.Attributions)
	}
	a := r.Attributions[0]
	if a.Env != "podman-bridge+runtime=runc" || len(a.Parts) != 0 || len(a.Others) != 2 {
		t.Fatalf("env %s, parts %+v, others %+v; want runc with two swaps", a.Env, a.Parts, a.Others)
	}
	want := map[string]struct {
		pp        float64
		mechanism string
	}{
		"runtime=crun":  {0.5, "crun, the OCI runtime in C"},
		"runtime=runsc": {-29, "gVisor (runsc), a user-space kernel between the workload and Linux"},
	}
	for _, o := range a.Others {
		w, ok := want[o.Option]
		if !ok || o.PP == nil || math.Abs(*o.PP-w.pp) > 1e-9 || o.Mechanism != w.mechanism {
			t.Errorf("swap %s: %v pp, %q; want %+v", o.Option, deref(o.PP), o.Mechanism, w)
		}
	}
}

// With the base environment in the study, a variant is never a reference.
func TestVariantOf(t *testing.T) {
	for _, tc := range []struct{ e, full, want string }{
		{"podman-bridge+runtime=runsc", "podman-bridge+runtime=runc", "+runtime=runsc"},
		{"podman-bridge+runtime=runsc+seccomp=unconfined", "podman-bridge+runtime=runc", "+runtime=runsc+seccomp=unconfined"},
		{"podman-bridge+seccomp=unconfined", "podman-bridge+runtime=runc", ""},
		{"docker-bridge+network=host", "docker-bridge", "+network=host"},
		{"docker-bridge", "docker-bridge", ""},
		{"docker-host+network=none", "docker-bridge", ""},
	} {
		if got := variantOf(tc.e, tc.full).String(); got != tc.want {
			t.Errorf("variantOf(%s, %s) = %q, want %q", tc.e, tc.full, got, tc.want)
		}
	}
}
