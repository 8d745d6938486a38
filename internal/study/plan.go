package study

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

// Cell is one combination of levels: a workload, an environment and a level
// of every factor that applies to the workload.
type Cell struct {
	Workload string
	Env      string
	Levels   map[string]string // env and factor levels by factor name
	Params   workload.Params   // the workload's parameters in this cell, defaults filled in
}

// Key names the cell canonically: workload|env=...|factor=... in name order.
func (c Cell) Key() string {
	names := make([]string, 0, len(c.Levels))
	for k := range c.Levels {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := []string{c.Workload}
	for _, k := range names {
		parts = append(parts, k+"="+c.Levels[k])
	}
	return strings.Join(parts, "|")
}

// Cells expands a validated spec into its cells, in spec order.
func (s *Spec) Cells() ([]Cell, error) {
	var cells []Cell
	for _, w := range s.Workloads {
		wl, err := workload.Lookup(w.Name)
		if err != nil {
			return nil, err
		}
		info := wl.Info()
		combos := []map[string]any{{}}
		for _, f := range s.Factors {
			if !f.appliesTo(info) {
				continue
			}
			var next []map[string]any
			for _, c := range combos {
				for _, lv := range f.Levels {
					m := map[string]any{}
					for k, v := range c {
						m[k] = v
					}
					m[f.Name] = lv
					next = append(next, m)
				}
			}
			combos = next
		}
		for _, e := range s.Envs {
			for _, combo := range combos {
				params := workload.Params{}
				for k, v := range w.Params {
					params[k] = v
				}
				levels := map[string]string{"env": e.Name}
				for _, f := range s.Factors {
					if lv, ok := combo[f.Name]; ok {
						if f.setsParam() {
							setParam(params, f.param(), f.value(lv))
						}
						levels[f.Name] = fmt.Sprint(lv)
					}
				}
				merged, _, err := workload.Prepare(wl, params)
				if err != nil {
					return nil, err
				}
				cells = append(cells, Cell{Workload: w.Name, Env: e.Name, Levels: levels, Params: merged})
			}
		}
	}
	return cells, nil
}

// Plan orders the runs of a spec as a randomized complete block design:
// first the warm-up rounds, then one round per repetition, each round holding
// every cell once in an order drawn afresh from the seed. Drift over time
// (heat, background activity) thus spreads evenly over environments instead
// of favouring whichever ran first.
func (s *Spec) Plan(seed int64) ([]store.Run, error) {
	cells, err := s.Cells()
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x626f78746178)) // "boxtax"
	var runs []store.Run
	round := func(rep int, warm bool) {
		for _, i := range rng.Perm(len(cells)) {
			c := cells[i]
			runs = append(runs, store.Run{
				Seq: len(runs), CellKey: c.Key(), Workload: c.Workload, Env: c.Env,
				Levels: c.Levels, Params: c.Params, Rep: rep, Warmup: warm,
			})
		}
	}
	for w := 0; s.Warmup != nil && w < *s.Warmup; w++ {
		round(w, true)
	}
	for r := 0; r < s.Repetitions; r++ {
		round(r, false)
	}
	return runs, nil
}

// BackgroundFor lists what runs on the host beside a run with these levels.
func (s *Spec) BackgroundFor(levels map[string]string) []Background {
	var out []Background
	for _, f := range s.Factors {
		if f.Background == nil {
			continue
		}
		if bg := f.Background[levels[f.Name]]; bg != nil {
			out = append(out, *bg)
		}
	}
	return out
}
