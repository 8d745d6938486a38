package page

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

func init() { report.RegisterFormat("html", Write) }

//go:embed html.tmpl
var htmlTemplate string

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	// svg marks a plot as safe HTML: package plot escapes every label it draws.
	"svg":   func(f report.Figure) template.HTML { return template.HTML(f.SVG) },
	"value": report.FmtValue,
	"pct":   report.FmtPct,
	"inc":   func(i int) int { return i + 1 },
	// opt prints an optional number, or a dash when there is none.
	"opt": func(format string, v *float64) string {
		if v == nil {
			return "–"
		}
		return fmt.Sprintf(format, *v)
	},
}).Parse(htmlTemplate))

// Write renders the report as one self-contained page: styles inline, plots as inline
// SVG, no scripts, fonts or anything else fetched, so it opens offline and
// can be mailed as one file. Every string is escaped by html/template.
func Write(w io.Writer, r *report.Report) error {
	return htmlPage.Execute(w, newHTMLView(r))
}

// htmlView is what the template shows.
type htmlView struct {
	R          *report.Report
	Title      string
	When       string
	Took       string
	Host       []report.Fact
	HostLine   string
	Glance     glance
	Envs       []string
	Rows       []htmlRow
	Overview   *report.Figure
	Workloads  []htmlWorkload
	Effects    []report.Effect
	Attrib     any // report.AttributionViews: a slice the template ranges over
	Papers     []report.PaperComparison
	Warnings   []warnGroup
	Failures   []report.Failure
	EnvColor   map[string]string
	Baseline   string
	NoteNoisy  bool
	HasFactors bool
}

type fact struct{ Name, Value string }

type glance struct {
	Comparisons, Beyond int
	Costs, Gains        []string
	Quiet               []string // workloads with no deviation beyond noise
	Noisy               string   // "12 of 42", empty when none is
}

type htmlRow struct {
	Workload, Name, Metric string
	First                  bool // first row of its workload
	Cells                  []htmlCell
}

type htmlCell struct {
	Main, Sub, Class, Tip string
}

type htmlWorkload struct {
	Name, Summary, SeedTool string
	Rows                    []htmlRow // this workload's rows of the overhead table
	Baseline                string
	Envs                    []string
	EnvColor                map[string]string
	Figures, Details        []report.Figure
	DetailsLabel            string
	Descriptives            []descRow
	Notes                   []noteRow
}

type descRow struct {
	Metric, Env                             string
	N                                       int
	Mean, Std, Min, Q1, Median, Q3, Max, CV string
}

type noteRow struct {
	Key    string
	Values []string // per env, in env order
}

type warnGroup struct {
	Title string
	Lead  string
	Items []string
	Noisy []noisyRow
}

type noisyRow struct {
	Row, Env, Metric, CV, Min, Max string
	N                              int
}

func newHTMLView(r *report.Report) htmlView {
	v := htmlView{R: r, Envs: r.Envs(), Baseline: r.Study.Baseline, Effects: r.Effects, Failures: r.Failures,
		EnvColor: map[string]string{}, HasFactors: len(r.Factors()) > 0}
	v.Title = fmt.Sprintf("Study %d: %s", r.Study.ID, r.Study.Name)
	v.When = r.Study.CreatedAt.UTC().Format("2006-01-02 15:04 MST")
	if first, last := r.Span(); !first.IsZero() && last.After(first) {
		v.Took = last.Sub(first).Round(time.Second).String()
	}
	for _, e := range r.Envs() {
		v.EnvColor[e] = envColor(r, e)
	}
	v.Host, v.HostLine = report.HostFacts(r.Host())
	v.Glance = glanceOf(r)
	v.Attrib = report.AttributionViews(r.Attributions)
	v.Rows = htmlRows(r)
	figs := Figures(r)
	rowsOf := map[string][]htmlRow{}
	for _, row := range v.Rows {
		rowsOf[row.Workload] = append(rowsOf[row.Workload], row)
	}
	byWL := map[string]*htmlWorkload{}
	for _, name := range workloadNames(r) {
		hw := &htmlWorkload{Name: name, Baseline: v.Baseline, Envs: v.Envs, EnvColor: v.EnvColor}
		if wl, err := workload.Lookup(name); err == nil {
			hw.Summary, hw.SeedTool = wl.Info().Summary, wl.Info().SeedTool
		}
		hw.Rows = rowsOf[name]
		hw.Descriptives = descriptives(r, name)
		hw.Notes = runNotes(r, name)
		byWL[name] = hw
	}
	for i := range figs {
		f := figs[i]
		switch {
		case f.Workload == "":
			v.Overview = &figs[i]
		case f.Detail:
			byWL[f.Workload].Details = append(byWL[f.Workload].Details, f)
		default:
			byWL[f.Workload].Figures = append(byWL[f.Workload].Figures, f)
		}
	}
	for _, name := range workloadNames(r) {
		hw := byWL[name]
		hw.DetailsLabel = "Spread of the runs (quartile boxes)"
		for _, f := range hw.Details {
			if f.Kind != "boxes" {
				hw.DetailsLabel = "More plots: the spread of the runs and the distributions of the other records"
			}
		}
		v.Workloads = append(v.Workloads, *hw)
	}
	v.Papers = r.ShownPapers()
	v.Warnings = warnGroups(r)
	return v
}

// costly tells whether a deviation makes things worse.
func costly(c *report.Cell) bool {
	return c.OverheadPct != nil && (*c.OverheadPct < 0) == c.HigherIsBetter
}

func glanceOf(r *report.Report) glance {
	var g glance
	type hit struct {
		abs  float64
		text string
	}
	var costs, gains []hit
	noisyWL := map[string]bool{}
	var order []string
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Secondary || c.IsBaseline || c.Absolute() {
			continue
		}
		if _, ok := noisyWL[c.Workload]; !ok {
			noisyWL[c.Workload] = false
			order = append(order, c.Workload)
		}
		if c.OverheadPct == nil {
			continue
		}
		g.Comparisons++
		if !c.Significant {
			continue
		}
		g.Beyond++
		noisyWL[c.Workload] = true
		t := hit{math.Abs(*c.OverheadPct), fmt.Sprintf("%s %s in %s: %s", report.RowName(c, r.Factors()), c.Label, c.Env, report.OverheadText(c))}
		if costly(c) {
			costs = append(costs, t)
		} else {
			gains = append(gains, t)
		}
	}
	noisy, primary := 0, 0
	for i := range r.Cells {
		if c := &r.Cells[i]; !c.Secondary {
			primary++
			if c.Noisy() {
				noisy++
			}
		}
	}
	if noisy > 0 {
		g.Noisy = fmt.Sprintf("%d of %d", noisy, primary)
	}
	sort.SliceStable(costs, func(i, j int) bool { return costs[i].abs > costs[j].abs })
	sort.SliceStable(gains, func(i, j int) bool { return gains[i].abs > gains[j].abs })
	for i := 0; i < len(costs) && i < 5; i++ {
		g.Costs = append(g.Costs, costs[i].text)
	}
	for i := 0; i < len(gains) && i < 3; i++ {
		g.Gains = append(g.Gains, gains[i].text)
	}
	for _, w := range order {
		if !noisyWL[w] {
			g.Quiet = append(g.Quiet, w)
		}
	}
	return g
}

func htmlRows(r *report.Report) []htmlRow {
	var out []htmlRow
	last := ""
	for _, row := range r.Rows() {
		hr := htmlRow{Name: row.Name, Metric: row.Metric}
		for _, c := range row.Cells {
			hr.Workload = c.Workload
		}
		hr.First = hr.Workload != last
		last = hr.Workload
		for _, e := range r.Envs() {
			hr.Cells = append(hr.Cells, htmlCellOf(row.Cells[e]))
		}
		out = append(out, hr)
	}
	return out
}

func htmlCellOf(c *report.Cell) htmlCell {
	switch {
	case c == nil:
		return htmlCell{Main: "–", Class: "none", Tip: "not measured"}
	case c.IsBaseline || c.Absolute() || c.OverheadPct == nil:
		hc := htmlCell{Main: report.FmtValue(c.Mean), Sub: fmt.Sprintf("(%s) n=%d", report.FmtValue(c.Std), c.N), Class: "base",
			Tip: fmt.Sprintf("mean %s, std %s over %d runs; median %s, quartiles %s to %s", report.FmtValue(c.Mean), report.FmtValue(c.Std), c.N, report.FmtValue(c.Median), report.FmtValue(c.Q1), report.FmtValue(c.Q3))}
		if !c.IsBaseline && c.Absolute() {
			hc.Tip += "; an absolute figure, compared as it is rather than as a ratio to " + c.Baseline
		} else if !c.IsBaseline {
			hc.Tip += "; no deviation: " + c.OverheadNote
		}
		if c.Noisy() {
			hc.Class += " noisy"
		}
		return hc
	}
	hc := htmlCell{Main: report.FmtPct(*c.OverheadPct), Class: "dev", Tip: report.OverheadText(c) + fmt.Sprintf("; mean %s, std %s, n=%d", report.FmtValue(c.Mean), report.FmtValue(c.Std), c.N)}
	ci := "[n/a]"
	if iv, ok := report.PctInterval(c.OverheadCI95); ok {
		ci = iv
	}
	hc.Sub = fmt.Sprintf("%s (%s)", ci, report.FmtValue(c.Std))
	if c.Significant {
		if costly(c) {
			hc.Class += " cost"
		} else {
			hc.Class += " gain"
		}
	}
	if c.Noisy() {
		hc.Class += " noisy"
	}
	return hc
}

func descriptives(r *report.Report, wl string) []descRow {
	var out []descRow
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload != wl {
			continue
		}
		name := c.Label
		if sfx := strings.TrimPrefix(report.RowName(c, r.Factors()), c.Workload); sfx != "" {
			name += " ·" + sfx
		}
		cv := "–"
		if c.Mean != 0 && c.N > 1 {
			cv = fmt.Sprintf("%.1f %%", c.Std/math.Abs(c.Mean)*100)
		}
		out = append(out, descRow{Metric: name, Env: c.Env, N: c.N, Mean: report.FmtValue(c.Mean), Std: report.FmtValue(c.Std),
			Min: report.FmtValue(c.Min), Q1: report.FmtValue(c.Q1), Median: report.FmtValue(c.Median), Q3: report.FmtValue(c.Q3), Max: report.FmtValue(c.Max), CV: cv})
	}
	return out
}

// runNotes lists what the measured runs of a workload noted about how they
// did their work, the distinct values per environment.
func runNotes(r *report.Report, wl string) []noteRow {
	vals := map[string]map[string][]string{} // key -> env -> distinct values
	for _, run := range r.StoredRuns() {
		if run.Workload != wl || run.Warmup || run.Status != store.RunOK {
			continue
		}
		for k, v := range run.Notes {
			if k == "warning" || strings.HasSuffix(k, "_warning") {
				continue
			}
			if vals[k] == nil {
				vals[k] = map[string][]string{}
			}
			if !slices.Contains(vals[k][run.Env], v) {
				vals[k][run.Env] = append(vals[k][run.Env], v)
			}
		}
	}
	var out []noteRow
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		nr := noteRow{Key: k}
		for _, e := range r.Envs() {
			nr.Values = append(nr.Values, strings.Join(vals[k][e], "; "))
		}
		out = append(out, nr)
	}
	return out
}

// warnGroups sorts the warnings by kind for the page: what workloads said,
// grouped by message; busy host; noisy cells as a table; outliers.
func warnGroups(r *report.Report) []warnGroup {
	var out []warnGroup
	notes := warnGroup{Title: "What the workloads said about their numbers"}
	subjects := map[string][]string{}
	var messages []string
	for _, w := range r.WarningDetails() {
		if w.Kind != report.WarnNote {
			continue
		}
		if _, ok := subjects[w.Message]; !ok {
			messages = append(messages, w.Message)
		}
		subjects[w.Message] = append(subjects[w.Message], w.Subject)
	}
	for _, m := range messages {
		notes.Items = append(notes.Items, strings.Join(subjects[m], ", ")+": "+m)
	}
	if len(notes.Items) > 0 {
		out = append(out, notes)
	}
	for _, t := range []struct{ kind, title, lead string }{
		{report.WarnBusy, "Busy host", "boxtax waits before each run for the host to be quiet (--settle); these runs started anyway."},
		{report.WarnOutlier, "Outliers", ""},
	} {
		g := warnGroup{Title: t.title, Lead: t.lead}
		for _, w := range r.WarningDetails() {
			if w.Kind == t.kind {
				g.Items = append(g.Items, w.Text)
			}
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	noisy := warnGroup{Title: "Noisy cells",
		Lead: fmt.Sprintf("The runs of these cells spread by more than %.0f %% of their mean (marked ~ in the tables): a deviation smaller than that spread says little. More repetitions (--reps) or a quieter host would help.", report.NoisyCV*100)}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Noisy() {
			noisy.Noisy = append(noisy.Noisy, noisyRow{Row: report.RowName(c, r.Factors()), Env: c.Env, Metric: c.Label, N: c.N,
				CV: fmt.Sprintf("%.0f %%", c.Std/math.Abs(c.Mean)*100), Min: report.FmtValue(c.Min), Max: report.FmtValue(c.Max)})
		}
	}
	if len(noisy.Noisy) > 0 {
		out = append(out, noisy)
	}
	return out
}
