package gate

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/workload"
)

// unregistered is a workload no package registers: only a catalog that
// is given it knows its name and metrics.
type unregistered struct{}

func (unregistered) Info() workload.Info {
	return workload.Info{Name: "test.local", Metrics: []workload.Metric{
		{Name: "ops_per_s", Unit: "ops/s", HigherIsBetter: true},
		{Name: "cpu_s", Unit: "s", Secondary: true},
	}}
}

func (unregistered) Configure(workload.Params) (workload.Config, error) { return run{}, nil }

type run struct{}

func (run) Run(context.Context, workload.Env, workload.Emitter) error { return nil }

// TestRulesResolveAgainstTheCatalogsWorkloads: a rule names the workloads
// the catalog is given, not those some package registered (issue 26 part
// 3), and an unknown one lists the catalog's.
func TestRulesResolveAgainstTheCatalogsWorkloads(t *testing.T) {
	cat := Catalog{Envs: []string{"native", "docker-bridge"}, Workloads: []workload.Workload{unregistered{}}}
	r, err := cat.ParseRule("docker-bridge:test.local.ops_per_s=5%")
	if err != nil {
		t.Fatalf("a workload of the catalog: %v", err)
	}
	if r.Workload != "test.local" || r.Metric != "ops_per_s" {
		t.Errorf("rule %+v", r)
	}
	for text, want := range map[string]string{
		"*:cpu.prime=5%":         "unknown workload \"cpu.prime\"; valid workloads: *, test.local",
		"*:test.local.nosuch=5%": "workload test.local has no metric \"nosuch\"; its metrics: ops_per_s, cpu_s",
		"*:=5%":                  "valid workloads: test.local",
	} {
		if _, err := cat.ParseRule(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", text, err, want)
		}
	}
	// The wildcard judges the catalog's primary metrics: ops_per_s, not
	// the secondary cpu_s.
	cells := []report.Cell{
		gateCellOf("docker-bridge", "test.local", "ops_per_s", true, -8, -9, -7, true),
		gateCellOf("docker-bridge", "test.local", "cpu_s", false, 50, 40, 60, true),
	}
	rules, err := cat.ParseRules([]string{"*:*=5%"})
	if err != nil {
		t.Fatal(err)
	}
	g := cat.Evaluate(report.OfCells([]string{"native", "docker-bridge"}, cells), rules)
	if len(g.Rules) != 1 || g.Rules[0].Checked != 1 || g.Rules[0].Cells[0].Metric != "ops_per_s" || g.Passed {
		t.Errorf("gate %+v", g)
	}
}
