package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
)

// Result is the analysis of one dataset: the thesis's tables for it.
type Result struct {
	Workload string
	Unit     string // PerSlice or PerRun
	// Observation names what N counts: slice, row or run.
	Observation string
	N           float64
	Runs        int
	Responses   []string
	Units       map[string]string
	Model       string   // the model fitted, after dropping constant factors
	Shown       []string // the factors that vary, which name a scenario
	Scenarios   []Scenario
	Overall     []Describe // per response, all observations pooled (Table 5.1's rows)
	Deadlines   *Deadlines // stored rt studies only
	ResidualDF  float64
	// Manova holds each multivariate test's table (two or more responses).
	Manova map[string][]stats.ManovaRow
	// Anova holds each response's table, Coefficients its coefficients.
	Anova        map[string][]stats.AnovaRow
	Coefficients map[string][]stats.Coefficient
	Notes        []string
}

// Scenario is one cell: its levels of the shown factors and descriptives.
type Scenario struct {
	Levels []string
	N      float64
	Stats  []Describe // per response
}

// Describe is a response's count, mean and standard deviation.
type Describe struct {
	N, Mean, Std float64
}

// Deadlines are run-level figures by scenario: mean over runs of the share
// of the slice used, the overrun rate and wake-up latency percentiles.
type Deadlines struct {
	Metrics []string
	Rows    []DeadlineRow
}

// DeadlineRow is one scenario's means over its runs.
type DeadlineRow struct {
	Levels []string
	Runs   int
	Means  []float64 // per metric; NaN when the runs lack it
}

// Analyze fits the model (the dataset's default when model is empty) and
// computes every table. Terms naming a factor with one level in the data
// (a kernel when all studies ran on one) are left out, with a note. It
// stops with ctx's error when ctx ends (Ctrl-C), and refuses a model too
// large to fit (stats.MaxModelBytes) before it allocates it.
func Analyze(ctx context.Context, d *Dataset, model string) (*Result, error) {
	if model == "" {
		model = d.DefaultModel
	}
	if strings.TrimSpace(model) == "" {
		return nil, fmt.Errorf("%s: no factor has two or more levels in these data, so there is nothing to compare", d.Workload)
	}
	terms, err := stats.ParseFormula(model)
	if err != nil {
		return nil, err
	}
	cells := d.Cells
	levelsSeen := seenLevels(cells)
	r := &Result{Workload: d.Workload, Unit: d.Unit, Observation: d.Observation, N: cells.N(), Runs: d.Runs, Responses: cells.Responses,
		Units: d.Units, Notes: slices.Clone(d.Notes)}
	if r.Observation == "" {
		r.Observation = d.Unit
	}
	var kept []stats.Term
	dropped := map[string][]string{}
	for _, t := range terms {
		ok := true
		for _, v := range t {
			fi := slices.IndexFunc(cells.Factors, func(f stats.Factor) bool { return f.Name == v })
			if fi < 0 {
				return nil, fmt.Errorf("the model names %q, which is not a factor of the data; factors: %s", v, factorList(cells.Factors))
			}
			if len(levelsSeen[fi]) < 2 {
				ok = false
				dropped[v] = append(dropped[v], t.String())
			}
		}
		if ok {
			kept = append(kept, t)
		}
	}
	for _, f := range cells.Factors {
		if ts, ok := dropped[f.Name]; ok {
			fi := slices.IndexFunc(cells.Factors, func(x stats.Factor) bool { return x.Name == f.Name })
			var lv []string
			for l := range levelsSeen[fi] {
				lv = append(lv, f.Levels[l])
			}
			r.Notes = append(r.Notes, fmt.Sprintf("%s has one level in these data (%s): the terms %s are left out", f.Name, strings.Join(lv, ""), strings.Join(ts, ", ")))
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%s: every term of %q names a factor with one level in these data", d.Workload, model)
	}
	var labels []string
	for _, t := range kept {
		labels = append(labels, t.String())
	}
	r.Model = strings.Join(labels, " + ")
	for i, f := range cells.Factors {
		if len(levelsSeen[i]) > 1 {
			r.Shown = append(r.Shown, f.Name)
		}
	}
	r.describe(cells)
	r.deadlines(d)

	m, err := stats.FitContext(ctx, cells, kept)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s, per %s: %w", d.Workload, d.Unit, err)
	}
	r.ResidualDF = m.ResidualDF
	for _, resp := range m.NoResidualVariance() {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has no residual variance (constant within every scenario): no F, p or significance stars for it (NA), as there is no spread to test against; R would print F = Inf or a huge F from rounding", resp))
	}
	r.Anova = map[string][]stats.AnovaRow{}
	r.Coefficients = map[string][]stats.Coefficient{}
	for i, resp := range r.Responses {
		r.Anova[resp] = m.Anova(i)
		r.Coefficients[resp] = m.Coefficients(i)
	}
	if len(r.Responses) > 1 {
		r.Manova = map[string][]stats.ManovaRow{}
		for _, test := range stats.MultivariateTests {
			rows, err := m.Manova(test)
			if err != nil {
				r.Notes = append(r.Notes, "no MANOVA: "+err.Error())
				r.Manova = nil
				break
			}
			r.Manova[test] = rows
		}
	}
	if r.ResidualDF < float64(len(r.Responses)) && r.Manova != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("only %v residual degrees of freedom for %d responses: the multivariate tests have little power; repeat more runs", r.ResidualDF, len(r.Responses)))
	}
	return r, nil
}

// seenLevels lists, per factor, the levels that have observations.
func seenLevels(c *stats.Cells) []map[int]bool {
	out := make([]map[int]bool, len(c.Factors))
	for i := range out {
		out[i] = map[int]bool{}
	}
	for _, cl := range c.List() {
		if cl.N == 0 {
			continue
		}
		for i, code := range cl.Codes {
			out[i][code] = true
		}
	}
	return out
}

// describe fills the scenario table and the pooled descriptives.
func (r *Result) describe(c *stats.Cells) {
	p := len(c.Responses)
	shown := r.shownIndexes(c.Factors)
	byKey := map[string]*stats.Cell{}
	var keys []string
	var keyCodes [][]int
	for _, cl := range c.List() {
		codes := make([]int, len(shown))
		for k, fi := range shown {
			codes[k] = cl.Codes[fi]
		}
		key := fmt.Sprint(codes)
		if prev, ok := byKey[key]; ok {
			byKey[key] = pool(prev, cl)
			continue
		}
		byKey[key] = cl
		keys = append(keys, key)
		keyCodes = append(keyCodes, codes)
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(keyCodes[a], keyCodes[b]) })
	var all *stats.Cell
	for _, i := range order {
		cl := byKey[keys[i]]
		s := Scenario{N: cl.N}
		for k, fi := range shown {
			s.Levels = append(s.Levels, c.Factors[fi].Levels[keyCodes[i][k]])
		}
		s.Stats = describeCell(cl, p)
		r.Scenarios = append(r.Scenarios, s)
		if all == nil {
			all = cl
		} else {
			all = pool(all, cl)
		}
	}
	if all != nil {
		r.Overall = describeCell(all, p)
	}
}

func describeCell(cl *stats.Cell, p int) []Describe {
	out := make([]Describe, p)
	for i := range out {
		out[i] = Describe{N: cl.N, Mean: cl.Mean[i], Std: math.NaN()}
		if cl.N > 1 {
			out[i].Std = math.Sqrt(cl.Comoment[i*p+i] / (cl.N - 1))
		}
	}
	return out
}

// pool combines two cells' statistics (Chan et al.).
func pool(a, b *stats.Cell) *stats.Cell {
	p := len(a.Mean)
	n := a.N + b.N
	out := &stats.Cell{N: n, Mean: make([]float64, p), Comoment: make([]float64, p*p)}
	f := a.N * b.N / n
	for i := 0; i < p; i++ {
		out.Mean[i] = a.Mean[i] + (b.Mean[i]-a.Mean[i])*b.N/n
		for j := 0; j < p; j++ {
			out.Comoment[i*p+j] = a.Comoment[i*p+j] + b.Comoment[i*p+j] + f*(b.Mean[i]-a.Mean[i])*(b.Mean[j]-a.Mean[j])
		}
	}
	return out
}

func (r *Result) shownIndexes(factors []stats.Factor) []int {
	var out []int
	for i, f := range factors {
		if slices.Contains(r.Shown, f.Name) {
			out = append(out, i)
		}
	}
	return out
}

// deadlines summarises the runs' deadline metrics by scenario.
func (r *Result) deadlines(d *Dataset) {
	if len(d.scenario) == 0 {
		return
	}
	var metrics []string
	for _, m := range deadlineMetrics {
		if slices.ContainsFunc(d.scenario, func(rm runMetrics) bool { _, ok := rm.values[m]; return ok }) {
			metrics = append(metrics, m)
		}
	}
	if len(metrics) == 0 {
		return
	}
	shown := r.shownIndexes(d.Cells.Factors)
	type acc struct {
		codes []int
		runs  int
		sums  []float64
		ns    []int
	}
	var rows []*acc
	for _, rm := range d.scenario {
		codes := make([]int, len(shown))
		for k, fi := range shown {
			codes[k] = rm.codes[fi]
		}
		i := slices.IndexFunc(rows, func(a *acc) bool { return slices.Equal(a.codes, codes) })
		if i < 0 {
			rows = append(rows, &acc{codes: codes, sums: make([]float64, len(metrics)), ns: make([]int, len(metrics))})
			i = len(rows) - 1
		}
		rows[i].runs++
		for k, m := range metrics {
			if v, ok := rm.values[m]; ok {
				rows[i].sums[k] += v
				rows[i].ns[k]++
			}
		}
	}
	slices.SortFunc(rows, func(a, b *acc) int { return slices.Compare(a.codes, b.codes) })
	r.Deadlines = &Deadlines{Metrics: metrics}
	for _, a := range rows {
		row := DeadlineRow{Runs: a.runs}
		for k, fi := range shown {
			row.Levels = append(row.Levels, d.Cells.Factors[fi].Levels[a.codes[k]])
		}
		for k := range metrics {
			row.Means = append(row.Means, a.sums[k]/float64(a.ns[k]))
		}
		r.Deadlines.Rows = append(r.Deadlines.Rows, row)
	}
}

func factorList(fs []stats.Factor) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
