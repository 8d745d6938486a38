package report

import (
	"cmp"
	"math"
	"slices"
)

// Advice is what to change, measured (issue 28 item 6): for a decided cost
// of an environment (its overhead's 95 % interval excludes 0, in the
// worse direction), the environment option in the same study that
// removes most of it, and by how much. The verdict prints it: "disk.seq
// read MB/s -81 % in docker-bridge; storage=volume removes 78 points of it".
type Advice struct {
	Workload string            `json:"workload"`
	Levels   map[string]string `json:"levels,omitempty"` // non-env factor levels of the row
	Metric   string            `json:"metric"`
	Label    string            `json:"label"`
	Env      string            `json:"env"` // the full container, e.g. docker-bridge
	// CostPct is the environment's overhead against the baseline, in
	// percent (negative: less of a higher-is-better figure).
	CostPct float64 `json:"cost_pct"`
	// Option is the variant's options, e.g. storage=volume, and Variant
	// the environment that measured it (docker-bridge+storage=volume).
	Option  string `json:"option"`
	Variant string `json:"variant"`
	// RemovesPts is how much of the cost the option removes, in
	// percentage points of the baseline mean (positive: towards the
	// baseline), with its 95 % interval, which excludes 0.
	RemovesPts float64    `json:"removes_pts"`
	CI95       [2]float64 `json:"ci95"`
}

// Advise returns, for every attributed cost of r that is decided and
// worse than the baseline, the option measured in the same study whose
// variant removes most of it: a part (an option switching a mechanism
// off) or another option (swapping one, as storage=volume), whichever
// gives back the most percentage points, counted only when its own
// interval excludes 0. Costs no option measurably reduces get no advice.
// Ordered by the size of the cost, largest first.
func Advise(r *Report) []Advice {
	var out []Advice
	for _, a := range r.Attributions {
		lo, hi, ok := ends(a.TotalCI95)
		if a.TotalPct == nil || !a.Significant || !ok || math.IsNaN(lo) || math.IsNaN(hi) {
			continue
		}
		total := *a.TotalPct
		c := r.cellOf(a)
		if c == nil || total == 0 || (total < 0) != c.HigherIsBetter {
			continue // better than the baseline: nothing to remove
		}
		sign := math.Copysign(1, total)
		var best *Advice
		consider := func(p AttributionPart, removal bool) {
			plo, phi, ok := ends(p.CI95)
			if p.PP == nil || !p.Significant || !ok {
				return
			}
			// A part is (full - variant)/baseline: it removes the part of the
			// cost in the cost's direction. Another option is (variant -
			// full)/baseline: it removes the opposite.
			s := sign
			if !removal {
				s = -sign
			}
			removes, l, h := s**p.PP, s*plo, s*phi
			if l > h {
				l, h = h, l
			}
			if removes <= 0 || (best != nil && removes <= best.RemovesPts) {
				return
			}
			best = &Advice{Workload: a.Workload, Levels: a.Levels, Metric: a.Metric, Label: a.Label, Env: a.Env,
				CostPct: total, Option: p.Option, Variant: p.Env, RemovesPts: removes, CI95: [2]float64{l, h}}
		}
		for _, p := range a.Parts {
			consider(p, true)
		}
		for _, p := range a.Others {
			consider(p, false)
		}
		if best != nil {
			out = append(out, *best)
		}
	}
	slices.SortStableFunc(out, func(x, y Advice) int { return cmp.Compare(math.Abs(y.CostPct), math.Abs(x.CostPct)) })
	return out
}

// cellOf is the report's cell an attribution's total is taken from.
func (r *Report) cellOf(a Attribution) *Cell {
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload == a.Workload && c.Env == a.Env && c.Metric == a.Metric && sameLevels(c.Levels, a.Levels) {
			return c
		}
	}
	return nil
}

// sameLevels compares a cell's levels (env included) with an
// attribution's (env left out).
func sameLevels(cell, levels map[string]string) bool {
	n := 0
	for k, v := range cell {
		if k == "env" {
			continue
		}
		if levels[k] != v {
			return false
		}
		n++
	}
	return n == len(levels)
}
