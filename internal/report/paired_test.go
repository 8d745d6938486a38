package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// driftingStudy: 6 rounds of mem.stream natively and in docker-bridge; each
// round's heat moves both alike, docker-bridge is 0.5 % slower. Round 4 of
// docker-bridge failed, so 5 rounds pair up.
func driftingStudy(paired bool) (*Report, []float64, []float64) {
	st := store.Study{ID: 9, Name: "drift", Status: store.StudyFinished, HostJSON: epycHost, SpecYAML: "name: drift\n"}
	drift := []float64{-300, 120, 250, -80, 400, -220}
	var runs []store.Run
	var samples []store.Sample
	var base, x []float64
	for rep, d := range drift {
		for _, env := range []string{"native", "docker-bridge"} {
			id := int64(len(runs) + 1)
			status := store.RunOK
			if env == "docker-bridge" && rep == 4 {
				status = store.RunFailed
			}
			runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "mem.stream|env=" + env, Workload: "mem.stream", Env: env,
				Levels: map[string]string{"env": env}, Params: map[string]any{}, Status: status})
			v := 20000 + d + float64(rep%2)*3
			if env == "docker-bridge" {
				v = 0.995*(20000+d) - float64(rep%3)*2
			}
			if status == store.RunOK {
				samples = append(samples, store.Sample{RunID: id, Metric: "scale_MBps", Value: v, Unit: "MB/s"})
				if env == "native" {
					base = append(base, v)
				} else {
					x = append(x, v)
				}
			}
		}
	}
	pairedBase := append(append([]float64{}, base[:4]...), base[5])
	return Build(st, Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"mem.stream"}, Paired: paired}, runs, samples), pairedBase, x
}

func TestPairedByRound(t *testing.T) {
	r, b, x := driftingStudy(false)
	var c *Cell
	for i := range r.Cells {
		if r.Cells[i].Env == "docker-bridge" {
			c = &r.Cells[i]
		}
	}
	if c == nil || c.Paired == nil {
		t.Fatalf("no paired estimate: %+v", c)
	}
	want := stats.PairedOverhead(b, x, 0.95)
	if c.Paired.Pairs != 5 || *c.Paired.CI95[0] != want.LoPct || *c.Paired.CI95[1] != want.HiPct || *c.Paired.PValue != want.PValue {
		t.Errorf("paired %+v, want %d pairs [%v, %v] p %v (the failed round left out)", c.Paired, 5, want.LoPct, want.HiPct, want.PValue)
	}
	if c.Significant || !c.Paired.Significant {
		t.Errorf("drift hides the 0.5%% unpaired (significant %v) but not paired (%v)", c.Significant, c.Paired.Significant)
	}
	// --paired makes the paired interval the overhead's, and says so.
	rp, _, _ := driftingStudy(true)
	for _, pc := range rp.Cells {
		if pc.Env != "docker-bridge" {
			continue
		}
		if *pc.OverheadCI95[0] != want.LoPct || !pc.Significant || !strings.Contains(pc.OverheadNote, "paired by round (5 pairs)") {
			t.Errorf("--paired cell: CI %v, significant %v, note %q", pc.OverheadCI95, pc.Significant, pc.OverheadNote)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, "table", rp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "overhead intervals: paired by round") || !strings.Contains(buf.String(), "-0.5%*") {
		t.Errorf("table:\n%s", buf.String())
	}
	buf.Reset()
	if err := Write(&buf, "html", rp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "overhead intervals paired by round") {
		t.Error("the HTML report does not say its intervals are paired")
	}
}

// TestPrecisionLineWording: the one line the report prints: half-widths by size, no interval, the first five misses.
func TestPrecisionLineWording(t *testing.T) {
	for _, tt := range []struct {
		hw   float64
		want string
	}{
		{3.21, "cpu.prime events/s @ docker-bridge (±3.2%)"},
		{12.6, "cpu.prime events/s @ docker-bridge (±13%)"},
		{math.Inf(1), "cpu.prime events/s @ docker-bridge (no interval)"},
	} {
		if got := missedCell("cpu.prime", "events/s", "docker-bridge", tt.hw); got != tt.want {
			t.Errorf("missedCell(hw %v) = %q, want %q", tt.hw, got, tt.want)
		}
	}
	for _, tt := range []struct {
		reached, cells int
		missed         []string
		want           string
	}{
		{4, 4, nil, "4 of 4 cells have their overhead's 95% interval within ±2%"},
		{2, 4, []string{"a", "b"}, "2 of 4 cells have their overhead's 95% interval within ±2%; not yet: a, b"},
		{0, 7, []string{"a", "b", "c", "d", "e", "f", "g"}, "0 of 7 cells have their overhead's 95% interval within ±2%; not yet: a, b, c, d, e and 2 more"},
	} {
		if got := precisionLine(tt.reached, tt.cells, 2, tt.missed); got != tt.want {
			t.Errorf("precisionLine = %q, want %q", got, tt.want)
		}
	}
}
