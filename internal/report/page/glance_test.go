package page

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
)

// Issue 28: a -95.8 % cell with n = 2, its interval unbounded, was listed
// under "No difference beyond noise". The glance takes the verdict: such a
// cell is undecided, and only a workload whose every cell shows no
// difference within ±p is listed as such.
func TestGlanceNeverCallsAnUndecidedCellNoDifference(t *testing.T) {
	var runs []store.Run
	var samples []store.Sample
	add := func(wl, env string, values ...float64) {
		for _, v := range values {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: wl + "|env=" + env, Workload: wl, Env: env,
				Levels: map[string]string{"env": env}, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: "rate", Value: v, Unit: "x/s"})
		}
	}
	add("w.collapse", "native", 600, 1500)
	add("w.collapse", "docker-bridge", 0, 88)
	add("w.same", "native", 1000, 1001, 999)
	add("w.same", "docker-bridge", 1000, 1001, 999.5)
	r := report.Build(store.Study{ID: 1, Name: "glance"}, report.Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}}, runs, samples)
	g := glanceOf(r)
	if strings.Join(g.Equal, ",") != "w.same" || g.NUndecided != 1 || g.NEqual != 1 || len(g.Undecided) != 1 ||
		!strings.Contains(g.Undecided[0], "w.collapse rate in docker-bridge: undecided") {
		t.Errorf("glance %+v", g)
	}
}
