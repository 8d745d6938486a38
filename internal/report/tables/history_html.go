package tables

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sync"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/plot"
)

// historyFigures are a history's plots, one per workload metric: a row
// per study, oldest at the top, and for each environment its overhead
// against the baseline as a dot with its 95 % interval, filled where the
// interval excludes 0. A drift, or a jump after an upgrade, reads down
// the page.
func historyFigures(h *report.History) []report.Figure {
	type group struct {
		title string
		envs  []string
		cells map[string]*report.HistoryCell
	}
	var groups []*group
	byTitle := map[string]*group{}
	for i := range h.Cells {
		c := &h.Cells[i]
		title := c.Row + " " + c.Label
		g := byTitle[title]
		if g == nil {
			g = &group{title: title, cells: map[string]*report.HistoryCell{}}
			byTitle[title] = g
			groups = append(groups, g)
		}
		g.envs = append(g.envs, c.Env)
		g.cells[c.Env] = c
	}
	var out []report.Figure
	for k, g := range groups {
		ch := plot.Intervals{Title: g.title + ": overhead over the studies (95 % CI)", XLabel: "% deviation from the study's baseline mean"}
		for _, s := range h.Studies {
			ch.Rows = append(ch.Rows, s.StudyLabel())
		}
		for j, env := range g.envs {
			c := g.cells[env]
			sr := plot.IntervalSeries{Name: env, Color: plot.Color(j)}
			for i, p := range pointsByStudy(h, c) {
				est, lo, hi, tip, strong := math.NaN(), math.NaN(), math.NaN(), "", false
				if p != nil && p.OverheadPct != nil {
					est = *p.OverheadPct
					strong = p.Decision == report.VerdictCosts || p.Decision == report.VerdictGains
					if l, u, ok := report.Ends(p.OverheadCI95); ok {
						lo, hi = l, u
					}
					tip = fmt.Sprintf("%s in %s, %s: %s", g.title, env, h.Studies[i].StudyLabel(), p.Text)
				}
				sr.Est, sr.Lo, sr.Hi = append(sr.Est, est), append(sr.Lo, lo), append(sr.Hi, hi)
				sr.Strong, sr.Tips = append(sr.Strong, strong), append(sr.Tips, tip)
			}
			ch.Series = append(ch.Series, sr)
		}
		ch.Desc = "A row per study, oldest first; dots: the overhead against that study's baseline; lines: its 95 % confidence interval; filled: a cost or a gain."
		out = append(out, report.Figure{ID: fmt.Sprintf("history-%d", k+1), Kind: "intervals", Title: ch.Title, SVG: ch.SVG(),
			Caption: "Where the intervals of two studies do not overlap, the host's state changed between them (or an upgrade did): a verdict of one study alone may not hold."})
	}
	return out
}

var historyHTML = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>boxtax: history of {{.H.Host}}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}td:nth-child(-n+4){text-align:left}.bad{color:#b00;font-weight:bold}figure{margin:1em 0}</style>
</head><body>
<h1>History of {{.H.Host}}</h1>
<p>{{len .H.Studies}} studies of this host, oldest first: each cell's overhead against the study's own baseline, with its 95 % interval and verdict.</p>
<ol>{{range .H.Studies}}<li>{{.StudyLabel}}: “{{.Name}}”, {{.Rounds}} rounds{{with .Kernel}}, kernel {{.}}{{end}}{{with .Engine}}, {{.}}{{end}}{{with .Boxtax}}, boxtax {{.}}{{end}}</li>{{end}}</ol>
{{with .H.BaselineMoves}}<h2>Baselines that moved</h2><ul>{{range .}}<li>study {{.Study}}: {{.Text}}</li>{{end}}</ul>{{end}}
{{with .Contradicting}}<p class="bad">{{.}} cell(s) have verdicts that contradict each other between studies (marked !, listed first): the host's state, not the environment, decided at least one of them.</p>{{end}}
<table><thead><tr><th></th><th>workload</th><th>env</th><th>metric</th>{{range $i, $s := .H.Studies}}<th>{{$s.ID}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if and (eq $i 0) $c}} class="bad"{{end}}>{{$c}}</td>{{end}}</tr>{{end}}</tbody></table>
{{range .Figs}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>{{end}}
</body></html>
`))
})

// WriteHistoryHTML renders a history as one self-contained page: the
// studies, the baselines that moved, the table (contradictions first) and
// a plot per workload metric. html/template escapes every string; the
// plots escape every label they draw.
func WriteHistoryHTML(w io.Writer, h *report.History) error {
	type fig struct {
		SVG     template.HTML
		Caption string
	}
	v := struct {
		H             *report.History
		Contradicting int
		Rows          [][]string
		Figs          []fig
	}{H: h}
	for _, c := range historyOrder(h) {
		mark := ""
		if c.Contradictions > 0 {
			mark = "!"
			v.Contradicting++
		}
		row := []string{mark, c.Row, c.Env, c.Label}
		for _, p := range pointsByStudy(h, c) {
			row = append(row, historyPoint(p))
		}
		v.Rows = append(v.Rows, row)
	}
	for _, f := range historyFigures(h) {
		v.Figs = append(v.Figs, fig{template.HTML(f.SVG), f.Caption}) // package plot escapes what it draws
	}
	return historyHTML().Execute(w, v)
}
