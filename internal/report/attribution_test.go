package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
)

// attributionStudy is a study of test.cpu in native, a full container and
// its variants, whose means are set so the parts are known: native 1000,
// full 700 (-30 %), network off 950 (the network path -25 pp), seccomp off
// 710 (-1 pp), all off 980 (rest -2 pp), tmpfs 720 (an alternative).
func attributionStudy() *Report {
	means := map[string]float64{
		"native": 1000, "docker-bridge": 700, "docker-bridge+network=host": 950, "docker-bridge+seccomp=unconfined": 710,
		"docker-bridge+network=host+seccomp=unconfined": 980, "docker-bridge+storage=tmpfs": 720,
	}
	envs := []string{"native", "docker-bridge", "docker-bridge+network=host", "docker-bridge+seccomp=unconfined",
		"docker-bridge+network=host+seccomp=unconfined", "docker-bridge+storage=tmpfs"}
	return meansStudy(9, "attribution", envs, []float64{-4, 0, 4}, map[string]map[string]float64{"": means})
}

// meansStudy is the report of study id called name: test.cpu's events/s
// in envs (native the baseline), in a row per threads level ("": a row
// without one), a round for each offset: every environment's mean in the
// row plus the offset.
func meansStudy(id int64, name string, envs []string, offsets []float64, means map[string]map[string]float64) *Report {
	st := store.Study{ID: id, Name: name, Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC), HostJSON: `{"hostname":"box","cpus":2}`, SpecYAML: "name: " + name + "\n"}
	var runs []store.Run
	var samples []store.Sample
	for rep, d := range offsets {
		for _, threads := range sortedKeys(means) {
			for _, env := range envs {
				id := int64(len(runs) + 1)
				key, levels := "test.cpu|env="+env, map[string]string{"env": env}
				if threads != "" {
					key, levels["threads"] = key+"|threads="+threads, threads
				}
				runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: key, Workload: "test.cpu", Env: env, Levels: levels, Rep: rep, Status: store.RunOK})
				samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: means[threads][env] + d, Unit: "events/s"})
			}
		}
	}
	return Build(st, Layout{Baseline: "native", Envs: envs, Workloads: []string{"test.cpu"}}, runs, samples)
}

func TestAttributionSplitsTheOverhead(t *testing.T) {
	r := attributionStudy()
	if len(r.Attributions) != 1 {
		t.Fatalf("%d attributions, want 1: %+v", len(r.Attributions), r.Attributions)
	}
	a := r.Attributions[0]
	near := func(what string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 1e-9 {
			t.Errorf("%s = %v, want %g", what, deref(got), want)
		}
	}
	near("total", a.TotalPct, -30)
	if a.Env != "docker-bridge" || len(a.Parts) != 2 {
		t.Fatalf("env %s, parts %+v", a.Env, a.Parts)
	}
	byOpt := map[string]AttributionPart{}
	for _, p := range a.Parts {
		byOpt[p.Option] = p
	}
	near("network part", byOpt["network=host"].PP, -25)
	near("network share", byOpt["network=host"].SharePct, 25.0/30*100)
	near("seccomp part", byOpt["seccomp=unconfined"].PP, -1)
	if !byOpt["network=host"].Significant {
		t.Error("a -25 pp part with a spread of 4 is not significant")
	}
	if a.Rest == nil || a.Rest.Env != "docker-bridge+network=host+seccomp=unconfined" {
		t.Fatalf("rest = %+v, want the all-off variant", a.Rest)
	}
	near("rest", a.Rest.PP, -2)
	near("unexplained", a.UnexplainedPP, -30-(-25-1-2))
	if len(a.Others) != 1 || a.Others[0].Option != "storage=tmpfs" {
		t.Fatalf("others = %+v, want storage=tmpfs", a.Others)
	}
	near("tmpfs changes", a.Others[0].PP, 2)
	if a.Others[0].SharePct != nil {
		t.Error("an alternative has no share of the overhead")
	}

	var text, md, html bytes.Buffer
	if err := Write(&text, "table", r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"what the overhead is made of", "test.cpu, events/s", "-30.0% [",
		"network=host: network path (veth, bridge, NAT)", "-25.0 pp [", "83% of it", "unexplained (interactions, noise)", "-1.0 pp",
		"switching to storage=tmpfs (scratch storage) changes it by"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, text.String())
		}
	}
	if err := Write(&md, "markdown", r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## What the overhead is made of") || !strings.Contains(md.String(), "| network path (veth, bridge, NAT) | network=host | -25.0 pp |") {
		t.Errorf("markdown lacks the attribution:\n%s", md.String())
	}
	if err := Write(&html, "html", r); err != nil { // package page, registered by the report_test files
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), `<section id="attribution">`) || !strings.Contains(html.String(), `style="width: 83%"`) {
		t.Errorf("html lacks the attribution section or its share bar")
	}
}

// Without variants there is nothing to attribute, and nothing is shown.
func TestNoAttributionWithoutVariants(t *testing.T) {
	r := fixture()
	if len(r.Attributions) != 0 {
		t.Fatalf("attributions %+v in a study without variants", r.Attributions)
	}
	var b bytes.Buffer
	Write(&b, "table", r)
	if strings.Contains(b.String(), "made of") {
		t.Error("the table shows an attribution section without variants")
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// The runtimes preset has no podman-bridge without options: its first
// variant (runtime=runc) is the reference, and the other runtimes read as
// swaps, "switching to runtime=runsc (gVisor ...) changes it by".
func TestAttributionOfRuntimesTakesTheFirstVariantAsReference(t *testing.T) {
	envs := []string{"native", "podman-bridge+runtime=runc", "podman-bridge+runtime=crun", "podman-bridge+runtime=runsc"}
	means := map[string]float64{"native": 1000, envs[1]: 990, envs[2]: 995, envs[3]: 700}
	r := meansStudy(3, "runtimes", envs, []float64{-4, 0, 4}, map[string]map[string]float64{"": means})
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
