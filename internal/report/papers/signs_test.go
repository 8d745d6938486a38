package papers

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// fabricated is a study whose one mapped cell holds exactly what a paper
// printed, read as the test reads the paper (not through compare's code): a
// % deviation as the container's value against a baseline of 100, a value
// as itself in the metric's unit. Every run gives the same number.
func fabricated(m *Mapping, env string, levels map[string]string, pub published, sign string) *report.Report {
	st := store.Study{ID: 9, Name: "fabricated", Status: store.StudyFinished, HostJSON: epycHost, SpecYAML: "name: fabricated\n"}
	values := map[string]float64{}
	scale := m.Scale
	if scale == 0 {
		scale = 1
	}
	if pub.pct {
		dev := pub.value
		switch sign {
		case SignLower: // "an overhead of 50%": 50 % less
			dev = -math.Abs(dev)
		case SignHigher: // "an increase of 20%": 20 % more
			dev = math.Abs(dev)
		}
		values["native"], values[env] = 100, 100*(1+dev/100)
	} else {
		values["native"], values[env] = pub.value*scale, pub.value*scale
	}
	var runs []store.Run
	var samples []store.Sample
	key := ""
	for _, k := range slices.Sorted(maps.Keys(levels)) {
		key += "|" + k + "=" + levels[k]
	}
	envs := []string{"native"}
	if env != "native" {
		envs = append(envs, env)
	}
	for rep := range 7 {
		for _, e := range envs {
			id := int64(len(runs) + 1)
			lv := map[string]string{"env": e}
			params := map[string]any{}
			for k, v := range levels {
				lv[k], params[k] = v, v
			}
			runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: m.Workload + "|env=" + e + key, Workload: m.Workload, Env: e,
				Levels: lv, Params: params, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: m.Metric, Value: values[e], Unit: "x"})
		}
	}
	return report.Build(st, report.Layout{Baseline: "native", Envs: envs, Workloads: []string{m.Workload}}, runs, samples)
}

// TestPublishedAndOursMeanTheSameDirection: for every published value that
// maps to a boxtax metric, a study whose cell holds that very value shows
// no difference in --compare-paper: the published figure and ours are read
// with the same sign, unit and statistic (issue 29: Morabito's "50%"
// overheads were compared as +50 % against our -50 %).
func TestPublishedAndOursMeanTheSameDirection(t *testing.T) {
	testenv.SkipSlowComputation(t, "every paper's every cell (44 s in the stripped run at load 28)")
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, p := range ps {
		for _, tab := range p.Tables {
			rows := tab.Rows
			if len(rows) == 0 {
				for _, c := range p.Configurations {
					rows = append(rows, RowSpec{Name: c.Name, Env: c.Env})
				}
			}
			for ci, col := range tab.Columns {
				for _, spec := range rows {
					m := col.Boxtax
					if spec.Boxtax != nil {
						m = spec.Boxtax
					}
					if m == nil {
						continue
					}
					env := spec.Env
					if env == "" {
						env = tab.Env
					}
					levels := mergeLevels(m.Where, tab.Levels, col.Levels, spec.Levels)
					for _, d := range p.Devices {
						cells, ok := tab.Values[d.ID][spec.Name]
						if !ok {
							continue
						}
						pub, err := parsePublished(cells[ci])
						if err != nil || pub.blank || pub.bound != "" || (pub.pct && env == "native") {
							continue
						}
						where := fmt.Sprintf("%s %s, %s, %s, %s (%q)", p.ID, tab.label(), col.Name, spec.Name, d.Name, cells[ci])
						// The direction is the paper file's (its sign:
						// convention); TestPublishedSignsFollowTheSeedTexts
						// checks it against the seed text.
						dir := tab.signOf(spec)
						if col.Ambiguous != "" || (pub.pct && dir == SignUnstated) {
							continue // compared with nothing, by design
						}
						r := fabricated(m, env, levels, pub, dir)
						cmps, err := Compare(r, p.ID)
						if err != nil {
							t.Fatal(err)
						}
						row, dev := findPaperRow(cmps, tab.label(), strings.TrimSuffix(col.Name+", "+col.Unit, ", "), spec.Name, d.Name)
						switch {
						case row == nil || dev < 0:
							t.Errorf("%s: no row in the comparison", where)
						case row.Status != report.PaperMeasured:
							t.Errorf("%s: %s (%s)", where, row.Status, row.Ours)
						case dev >= len(row.Diff) || row.Diff[dev] == nil:
							t.Errorf("%s: no difference computed (ours %q)", where, row.Ours)
						case math.Abs(*row.Diff[dev]) > 1e-9:
							t.Errorf("%s: a study of exactly the published value differs by %+.3g %s (published %q, ours %q)", where, *row.Diff[dev], row.DiffUnit, row.Published[dev], row.Ours)
						default:
							checked[p.ID]++
						}
					}
				}
			}
		}
	}
	for _, id := range []string{"krylovskiy2015", "morabito2017", "kalaska2023", "marques"} {
		if checked[id] == 0 {
			t.Errorf("%s: no published value was checked", id)
		}
	}
	t.Logf("published values checked against a study of themselves: %v", checked)
}

// findPaperRow finds a comparison row by table, column and configuration,
// and the index of a device among its published columns.
func findPaperRow(cmps []report.PaperComparison, table, column, conf, device string) (*report.PaperRow, int) {
	for _, c := range cmps {
		if c.Table != table {
			continue
		}
		for i := range c.Rows {
			if c.Rows[i].Column == column && c.Rows[i].Conf == conf {
				for j, d := range c.Devices {
					if d == device {
						return &c.Rows[i], j
					}
				}
				return &c.Rows[i], -1
			}
		}
	}
	return nil, -1
}
