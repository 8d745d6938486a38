package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

func init() { registerFormat("html", writeHTML) }

//go:embed html.tmpl
var htmlTemplate string

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	// svg marks a plot as safe HTML: package plot escapes every label it draws.
	"svg":   func(f Figure) template.HTML { return template.HTML(f.SVG) },
	"value": fmtValue,
	"pct":   fmtPct,
	"inc":   func(i int) int { return i + 1 },
	// opt prints an optional number, or a dash when there is none.
	"opt": func(format string, v *float64) string {
		if v == nil {
			return "–"
		}
		return fmt.Sprintf(format, *v)
	},
}).Parse(htmlTemplate))

// writeHTML renders one self-contained page: styles inline, plots as inline
// SVG, no scripts, fonts or anything else fetched, so it opens offline and
// can be mailed as one file. Every string is escaped by html/template.
func writeHTML(w io.Writer, r *Report) error {
	return htmlPage.Execute(w, newHTMLView(r))
}

// htmlView is what the template shows.
type htmlView struct {
	R          *Report
	Title      string
	When       string
	Took       string
	Host       []fact
	HostLine   string
	Glance     glance
	Envs       []string
	Rows       []htmlRow
	Overview   *Figure
	Workloads  []htmlWorkload
	Effects    []Effect
	Attrib     []attribView
	Papers     []PaperComparison
	Warnings   []warnGroup
	Failures   []Failure
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
	Figures, Details        []Figure
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

func newHTMLView(r *Report) htmlView {
	v := htmlView{R: r, Envs: r.envs, Baseline: r.Study.Baseline, Effects: r.Effects, Failures: r.Failures,
		EnvColor: map[string]string{}, HasFactors: len(r.factors) > 0}
	v.Title = fmt.Sprintf("Study %d: %s", r.Study.ID, r.Study.Name)
	v.When = r.Study.CreatedAt.UTC().Format("2006-01-02 15:04 MST")
	if !r.first.IsZero() && r.last.After(r.first) {
		v.Took = r.last.Sub(r.first).Round(time.Second).String()
	}
	for _, e := range r.envs {
		v.EnvColor[e] = r.envColor(e)
	}
	v.Host, v.HostLine = hostFacts(r.host)
	v.Glance = r.glance()
	v.Attrib = attribViews(r.Attributions)
	v.Rows = r.htmlRows()
	figs := r.Figures()
	rowsOf := map[string][]htmlRow{}
	for _, row := range v.Rows {
		rowsOf[row.Workload] = append(rowsOf[row.Workload], row)
	}
	byWL := map[string]*htmlWorkload{}
	for _, name := range r.workloadNames() {
		hw := &htmlWorkload{Name: name, Baseline: v.Baseline, Envs: v.Envs, EnvColor: v.EnvColor}
		if wl, err := workload.Lookup(name); err == nil {
			hw.Summary, hw.SeedTool = wl.Info().Summary, wl.Info().SeedTool
		}
		hw.Rows = rowsOf[name]
		hw.Descriptives = r.descriptives(name)
		hw.Notes = r.runNotes(name)
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
	for _, name := range r.workloadNames() {
		hw := byWL[name]
		hw.DetailsLabel = "Spread of the runs (quartile boxes)"
		for _, f := range hw.Details {
			if f.Kind != "boxes" {
				hw.DetailsLabel = "More plots: the spread of the runs and the distributions of the other records"
			}
		}
		v.Workloads = append(v.Workloads, *hw)
	}
	v.Papers = r.papers
	if v.Papers == nil {
		v.Papers = ComparePapers(r)
	}
	v.Warnings = r.warnGroups()
	return v
}

// hostFacts lists the host's facts for the page and sums them up in a line.
func hostFacts(h hostinfo.Host) ([]fact, string) {
	var out []fact
	add := func(name, value string) {
		if strings.TrimSpace(value) != "" {
			out = append(out, fact{name, value})
		}
	}
	add("hostname", h.Hostname)
	cpu := h.CPUModel
	if h.CPUs > 0 {
		cpu = fmt.Sprintf("%s, %d logical CPUs", h.CPUModel, h.CPUs)
	}
	add("CPU", cpu)
	if h.MemTotalBytes > 0 {
		add("memory", fmt.Sprintf("%.1f GiB", float64(h.MemTotalBytes)/(1<<30)))
	}
	add("OS / architecture", strings.Trim(h.OS+" / "+h.Arch, " /"))
	add("kernel", strings.TrimSpace(h.KernelRelease+" "+h.KernelVersion))
	add("preemption", h.Preemption)
	add("CPU governor", h.Governor)
	add("virtualized", h.Virtualized)
	for _, f := range h.EngineFacts() {
		add(f.Name, f.Value)
	}
	add("boxtax", h.Boxtax)
	if !h.CollectedAt.IsZero() {
		add("facts collected", h.CollectedAt.UTC().Format("2006-01-02 15:04 MST"))
	}
	line := cpu
	if h.KernelRelease != "" {
		line += ", kernel " + h.KernelRelease
	}
	if name := h.Docker.Name(); name != "" {
		line += fmt.Sprintf(", %s (%s)", name, h.Docker.StorageDriver)
	}
	if h.Hostname != "" {
		line = h.Hostname + ": " + line
	}
	return out, strings.Trim(line, ", :")
}

// costly tells whether a deviation makes things worse.
func costly(c *Cell) bool {
	return c.OverheadPct != nil && (*c.OverheadPct < 0) == c.HigherIsBetter
}

func (r *Report) glance() glance {
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
		if c.secondary || c.IsBaseline || c.absolute {
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
		t := hit{math.Abs(*c.OverheadPct), fmt.Sprintf("%s %s in %s: %s", rowName(c, r.factors), c.Label, c.Env, overheadText(c))}
		if costly(c) {
			costs = append(costs, t)
		} else {
			gains = append(gains, t)
		}
	}
	noisy, primary := 0, 0
	for i := range r.Cells {
		if c := &r.Cells[i]; !c.secondary {
			primary++
			if c.noisy() {
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

func (r *Report) htmlRows() []htmlRow {
	var out []htmlRow
	last := ""
	for _, row := range r.rows() {
		hr := htmlRow{Name: row.name, Metric: row.metric}
		for _, c := range row.cells {
			hr.Workload = c.Workload
		}
		hr.First = hr.Workload != last
		last = hr.Workload
		for _, e := range r.envs {
			hr.Cells = append(hr.Cells, htmlCellOf(row.cells[e]))
		}
		out = append(out, hr)
	}
	return out
}

func htmlCellOf(c *Cell) htmlCell {
	switch {
	case c == nil:
		return htmlCell{Main: "–", Class: "none", Tip: "not measured"}
	case c.IsBaseline || c.absolute || c.OverheadPct == nil:
		hc := htmlCell{Main: fmtValue(c.Mean), Sub: fmt.Sprintf("(%s) n=%d", fmtValue(c.Std), c.N), Class: "base",
			Tip: fmt.Sprintf("mean %s, std %s over %d runs; median %s, quartiles %s to %s", fmtValue(c.Mean), fmtValue(c.Std), c.N, fmtValue(c.Median), fmtValue(c.Q1), fmtValue(c.Q3))}
		if !c.IsBaseline && c.absolute {
			hc.Tip += "; an absolute figure, compared as it is rather than as a ratio to " + c.Baseline
		} else if !c.IsBaseline {
			hc.Tip += "; no deviation: " + c.OverheadNote
		}
		if c.noisy() {
			hc.Class += " noisy"
		}
		return hc
	}
	hc := htmlCell{Main: fmtPct(*c.OverheadPct), Class: "dev", Tip: overheadText(c) + fmt.Sprintf("; mean %s, std %s, n=%d", fmtValue(c.Mean), fmtValue(c.Std), c.N)}
	ci := "[n/a]"
	if iv, ok := pctInterval(c.OverheadCI95); ok {
		ci = iv
	}
	hc.Sub = fmt.Sprintf("%s (%s)", ci, fmtValue(c.Std))
	if c.Significant {
		if costly(c) {
			hc.Class += " cost"
		} else {
			hc.Class += " gain"
		}
	}
	if c.noisy() {
		hc.Class += " noisy"
	}
	return hc
}

func (r *Report) descriptives(wl string) []descRow {
	var out []descRow
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload != wl {
			continue
		}
		name := c.Label
		if sfx := strings.TrimPrefix(rowName(c, r.factors), c.Workload); sfx != "" {
			name += " ·" + sfx
		}
		cv := "–"
		if c.Mean != 0 && c.N > 1 {
			cv = fmt.Sprintf("%.1f %%", c.Std/math.Abs(c.Mean)*100)
		}
		out = append(out, descRow{Metric: name, Env: c.Env, N: c.N, Mean: fmtValue(c.Mean), Std: fmtValue(c.Std),
			Min: fmtValue(c.Min), Q1: fmtValue(c.Q1), Median: fmtValue(c.Median), Q3: fmtValue(c.Q3), Max: fmtValue(c.Max), CV: cv})
	}
	return out
}

// runNotes lists what the measured runs of a workload noted about how they
// did their work, the distinct values per environment.
func (r *Report) runNotes(wl string) []noteRow {
	vals := map[string]map[string][]string{} // key -> env -> distinct values
	var ids []int64
	for id := range r.runs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		run := r.runs[id]
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
	for _, k := range sortedKeys(vals) {
		nr := noteRow{Key: k}
		for _, e := range r.envs {
			nr.Values = append(nr.Values, strings.Join(vals[k][e], "; "))
		}
		out = append(out, nr)
	}
	return out
}

// warnGroups sorts the warnings by kind for the page: what workloads said,
// grouped by message; busy host; noisy cells as a table; outliers.
func (r *Report) warnGroups() []warnGroup {
	var out []warnGroup
	notes := warnGroup{Title: "What the workloads said about their numbers"}
	subjects := map[string][]string{}
	var messages []string
	for _, w := range r.warns {
		if w.kind != warnNote {
			continue
		}
		if _, ok := subjects[w.message]; !ok {
			messages = append(messages, w.message)
		}
		subjects[w.message] = append(subjects[w.message], w.subject)
	}
	for _, m := range messages {
		notes.Items = append(notes.Items, strings.Join(subjects[m], ", ")+": "+m)
	}
	if len(notes.Items) > 0 {
		out = append(out, notes)
	}
	for _, t := range []struct{ kind, title, lead string }{
		{warnBusy, "Busy host", "boxtax waits before each run for the host to be quiet (--settle); these runs started anyway."},
		{warnOutlier, "Outliers", ""},
	} {
		g := warnGroup{Title: t.title, Lead: t.lead}
		for _, w := range r.warns {
			if w.kind == t.kind {
				g.Items = append(g.Items, w.text)
			}
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	noisy := warnGroup{Title: "Noisy cells",
		Lead: fmt.Sprintf("The runs of these cells spread by more than %.0f %% of their mean (marked ~ in the tables): a deviation smaller than that spread says little. More repetitions (--reps) or a quieter host would help.", NoisyCV*100)}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.noisy() {
			noisy.Noisy = append(noisy.Noisy, noisyRow{Row: rowName(c, r.factors), Env: c.Env, Metric: c.Label, N: c.N,
				CV: fmt.Sprintf("%.0f %%", c.Std/math.Abs(c.Mean)*100), Min: fmtValue(c.Min), Max: fmtValue(c.Max)})
		}
	}
	if len(noisy.Noisy) > 0 {
		out = append(out, noisy)
	}
	return out
}
