package result

import (
	"encoding/json"
	"math"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// Earlier is what earlier studies of the same host measured of each
// judged cell (an environment's metric of a workload with its levels and
// parameters, against the baseline): one estimate per study, oldest
// first. A cell's interval carries their spread (Overhead.WithStudies).
type Earlier map[string][]stats.Estimate

// earlierKey names c across studies: its run cell, metric and the
// workload's parameters as run (a cell that ran another command or size
// is another cell).
func earlierKey(c *Cell) string {
	params, _ := json.Marshal(c.Run.Params) // maps marshal in key order
	return c.Run.CellKey + "\x00" + c.Metric + "\x00" + string(params)
}

// Add puts the estimates of one earlier study, its runs and samples
// judged against its baseline across rounds (Cells.Against), into e.
func (e Earlier) Add(baseline string, runs []store.Run, samples []store.Sample) {
	cs := Gather(runs, samples)
	for _, c := range cs.List {
		if c.Secondary || c.Run.Env == baseline {
			continue
		}
		if base, ok := cs.Baseline(c, baseline); ok {
			if est, ok := stats.EstimateOf(cs.Against(c, base).Across.Overhead); ok {
				e[earlierKey(c)] = append(e[earlierKey(c)], est)
			}
		}
	}
}

// Of is the earlier estimates of c.
func (e Earlier) Of(c *Cell) []stats.Estimate { return e[earlierKey(c)] }

// WithStudies is o with its intervals (the 95 % one, and so the firm
// one) widened by the spread between the studies of the host
// (stats.BetweenStudies of the earlier estimates and this study's own):
// a state of the host that moves between studies is a variance no study
// sees from within. o as it is without earlier estimates or without a
// finite interval of its own.
func (o Overhead) WithStudies(earlier []stats.Estimate) Overhead {
	own, ok := stats.EstimateOf(o.Across.Overhead)
	if len(earlier) == 0 || !ok {
		return o
	}
	tau2 := stats.BetweenStudies(append(append([]stats.Estimate{}, earlier...), own))
	o.Studies, o.BetweenSD = len(earlier)+1, math.Sqrt(tau2)
	o.Across.Overhead = o.Across.Overhead.WithBetween(tau2)
	return o
}
