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
	st := store.Study{ID: 9, Name: "attribution", Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC), HostJSON: `{"hostname":"box","cpus":2}`, SpecYAML: "name: attribution\n"}
	means := map[string]float64{
		"native": 1000, "docker-bridge": 700, "docker-bridge+network=host": 950, "docker-bridge+seccomp=unconfined": 710,
		"docker-bridge+network=host+seccomp=unconfined": 980, "docker-bridge+storage=tmpfs": 720,
	}
	envs := []string{"native", "docker-bridge", "docker-bridge+network=host", "docker-bridge+seccomp=unconfined",
		"docker-bridge+network=host+seccomp=unconfined", "docker-bridge+storage=tmpfs"}
	var runs []store.Run
	var samples []store.Sample
	for rep, d := range []float64{-4, 0, 4} {
		for _, env := range envs {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
				Levels: map[string]string{"env": env}, Rep: rep, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: means[env] + d, Unit: "events/s"})
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
