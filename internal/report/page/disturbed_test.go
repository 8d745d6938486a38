package page

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
)

// TestPageListsDisturbedRuns: the HTML page says which runs were left out
// of the verdicts and why, escaped as everything it renders.
func TestPageListsDisturbedRuns(t *testing.T) {
	var runs []store.Run
	var samples []store.Sample
	for i, env := range []string{"native", "docker-bridge", "native", "docker-bridge", "native", "docker-bridge"} {
		id := int64(i + 1)
		run := store.Run{ID: id, Seq: i, Rep: i / 2, CellKey: "w.cpu|env=" + env, Workload: "w.cpu", Env: env, Levels: map[string]string{"env": env}, Status: store.RunOK}
		if i == 3 {
			run.Status, run.Reason = store.RunDisturbed, "steal: the hypervisor took 31.0% of the CPUs' time <during> the run (limit 10%)"
		}
		runs = append(runs, run)
		samples = append(samples, store.Sample{RunID: id, Metric: "rate", Value: 1000 + float64(i), Unit: "x/s"})
	}
	r := report.Build(store.Study{ID: 1, Name: "disturbed"}, report.Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}}, runs, samples)
	var page bytes.Buffer
	if err := Write(&page, r); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, want := range []string{"Disturbed runs, left out of the verdicts", "run 4, w.cpu @ docker-bridge: steal: the hypervisor took 31.0% of the CPUs&#39; time &lt;during&gt; the run"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, "<during>") {
		t.Error("the reason is not escaped")
	}
}
