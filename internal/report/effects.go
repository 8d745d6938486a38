package report

import (
	"sort"

	"github.com/boxtax/boxtax/internal/stats"
)

// Effect is one term of an analysis of variance of one metric: how much of
// the spread between runs a factor (env, threads, their interaction)
// explains, beside its test. Effect sizes are reported with p-values because
// with many runs every p-value becomes tiny (seed 002, Table 5.3).
type Effect struct {
	Workload     string   `json:"workload"`
	Metric       string   `json:"metric"`
	Label        string   `json:"label"`
	Term         string   `json:"term"`   // "env", "threads", "env:threads"
	Method       string   `json:"method"` // how the table was computed
	DF           float64  `json:"df"`
	DFResidual   float64  `json:"df_residual"`
	F            *float64 `json:"f"`
	P            *float64 `json:"p"`
	EtaSq        *float64 `json:"eta_sq"`         // SS_term / SS_total
	PartialEtaSq *float64 `json:"partial_eta_sq"` // SS_term / (SS_term + SS_residual)
	// Note says why F and p are missing: the metric has no residual variance.
	Note string `json:"note,omitempty"`
}

// noResidualNote explains an effect without F and p.
const noResidualNote = "no residual variance (the metric is constant within every cell): no F or p (NA), as there is no spread to test against"

// anovaMethod says how analyze computes its tables.
const anovaMethod = "ANOVA of the full factorial model, sequential (type I) sums of squares, the run as the unit of replication"

// analyze runs, for every primary metric of every workload, an analysis of
// variance of the measured runs on env and the workload's other factors
// with all their interactions (R: aov(y ~ env * threads)), and returns one
// Effect per term. Factors with one level are left out; a metric whose model
// leaves no residual degrees of freedom (one run per cell) gets no table.
func analyze(r *Report) []Effect {
	var out []Effect
	type metricKey struct{ workload, metric string }
	var order []metricKey
	byMetric := map[metricKey][]*Cell{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Secondary || c.N == 0 {
			continue
		}
		k := metricKey{c.Workload, c.Metric}
		if _, ok := byMetric[k]; !ok {
			order = append(order, k)
		}
		byMetric[k] = append(byMetric[k], c)
	}
	for _, k := range order {
		out = append(out, r.anova(byMetric[k])...)
	}
	return out
}

// anova analyses the cells of one metric.
func (r *Report) anova(cells []*Cell) []Effect {
	names := append([]string{"env"}, r.factors...)
	var factors []stats.Factor
	var used []string
	for _, name := range names {
		seen := map[string]bool{}
		var levels []string
		if name == "env" {
			for _, e := range r.envs { // the baseline first: the reference level
				for _, c := range cells {
					if c.Env == e && !seen[e] {
						seen[e] = true
						levels = append(levels, e)
					}
				}
			}
		} else {
			for _, c := range cells {
				if v, ok := c.Levels[name]; ok && !seen[v] {
					seen[v] = true
					levels = append(levels, v)
				}
			}
			sort.Slice(levels, func(i, j int) bool { return NaturalLess(levels[i], levels[j]) })
		}
		if len(levels) >= 2 {
			factors = append(factors, stats.Factor{Name: name, Levels: levels})
			used = append(used, name)
		}
	}
	if len(factors) == 0 {
		return nil
	}
	data := stats.NewCells(factors, []string{cells[0].Metric})
	for _, c := range cells {
		codes := make([]int, len(factors))
		for i, f := range factors {
			v := c.Env
			if f.Name != "env" {
				v = c.Levels[f.Name]
			}
			codes[i] = indexOf(f.Levels, v)
		}
		for _, v := range c.Values {
			if err := data.Add(codes, []float64{v}); err != nil {
				return nil
			}
		}
	}
	m, err := stats.Fit(data, allInteractions(used))
	if err != nil {
		return nil
	}
	note := ""
	if len(m.NoResidualVariance()) > 0 {
		note = noResidualNote
	}
	var out []Effect
	for _, row := range m.Anova(0) {
		if row.Term == "Residuals" {
			continue
		}
		out = append(out, Effect{Workload: cells[0].Workload, Metric: cells[0].Metric, Label: cells[0].Label, Term: row.Term,
			Method: anovaMethod, DF: row.DF, DFResidual: m.ResidualDF,
			F: finite(row.F), P: finite(row.P), EtaSq: finite(row.EtaSq), PartialEtaSq: finite(row.PartialEtaSq), Note: note})
	}
	return out
}

// allInteractions lists the terms of a*b*c in R's order: main effects, then
// two-way interactions, and so on, each order in the order of the factors.
func allInteractions(names []string) []stats.Term {
	var terms []stats.Term
	for size := 1; size <= len(names); size++ {
		var pick func(start int, cur []string)
		pick = func(start int, cur []string) {
			if len(cur) == size {
				terms = append(terms, append(stats.Term(nil), cur...))
				return
			}
			for i := start; i < len(names); i++ {
				pick(i+1, append(cur, names[i]))
			}
		}
		pick(0, nil)
	}
	return terms
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
