package page

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/tables"
	"github.com/boxtax/boxtax/internal/workload"
)

//go:embed html.tmpl
var htmlTemplate string

var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
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
})

// Write renders the report as one self-contained page: styles inline, plots as inline
// SVG, no scripts, fonts or anything else fetched, so it opens offline and
// can be mailed as one file. Every string is escaped by html/template.
func Write(w io.Writer, r *report.Report) error {
	return htmlPage().Execute(w, newHTMLView(r))
}

// htmlView is what the template shows.
type htmlView struct {
	R          *report.Report
	Title      string
	When       string
	Took       string
	Host       []report.Fact
	HostLine   string
	LeftOut    string // the environments --skip-unavailable left out, with why
	Glance     glance
	Envs       []string
	Rows       []htmlRow
	Overview   *report.Figure
	Workloads  []htmlWorkload
	Effects    []report.Effect
	Attrib     []tables.AttributionView
	Papers     []report.PaperComparison
	Warnings   []warnGroup
	Failures   []report.Failure
	EnvColor   map[string]string
	Baseline   string
	NoteNoisy  bool
	HasFactors bool
}

// glance is the verdict at the top of the page.
type glance struct {
	Comparisons                         int     // verdicts: environments but the baseline x primary metrics
	Margin                              float64 // p of "no difference beyond ±p %"
	NCosts, NGains, NEqual, NUndecided  int
	Costs, Gains, Undecided             []string // the largest first, a few of each
	MoreCosts, MoreGains, MoreUndecided int      // those left out
	Equal                               []string // workloads with no difference beyond ±p % in any cell
	Noisy                               string   // "12 of 42", empty when none is
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
	v.LeftOut = report.LeftOutLine(r.Host())
	v.Glance = glanceOf(r)
	v.Attrib = tables.AttributionViews(r.Attributions)
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
