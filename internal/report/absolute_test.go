package report_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/page"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
)

// fakeStart reports an absolute figure: a start-up time that has no
// meaningful ratio to a native process's.
type fakeStart struct{}

func (fakeStart) Info() workload.Info {
	return workload.Info{Name: "test.start", Metrics: []workload.Metric{
		{Name: "start_ms", Unit: "ms", Label: "start ms", Absolute: true},
	}}
}
func (fakeStart) Configure(workload.Params) (workload.Config, error) { return fakeStart{}, nil }
func (fakeStart) Run(context.Context, workload.Env, workload.Emitter) error {
	return nil
}

func init() { workload.Register(fakeStart{}) }

func TestAbsoluteMetricsAreNotShownAsDeviations(t *testing.T) {
	runs, samples := testenv.NativeAndBridgeRuns("test.start", "start_ms", "ms", 1, 1.1, 0.9, 300, 310, 290)
	r := report.Build(store.Study{ID: 1, Name: "start"}, report.Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}}, runs, samples)
	for _, format := range []string{"html", "markdown", "latex", "table"} {
		var buf bytes.Buffer
		if err := report.Write(&buf, format, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "300.0") || strings.Contains(buf.String(), "+29900") {
			t.Errorf("%s: the container's start-up time is not shown as mean (std):\n%s", format, buf.String())
		}
	}
	for _, f := range page.Figures(r) {
		if f.Kind == "intervals" {
			t.Errorf("an absolute metric got a deviation plot")
		}
	}
}
