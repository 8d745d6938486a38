package tables

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/plot"
)

// devicesFigure is the per-device plot: every device's deviation from its own
// baseline with its 95 % interval, a colour per device.
func devicesFigure(d *report.Devices) (report.Figure, bool) {
	envs := envsOf(d)
	ch := plot.Intervals{Title: "Deviation from the baseline, by device (95 % CI)", XLabel: "% deviation from the device's " + baselinesOf(d) + " mean"}
	type key struct{ dev, env int }
	var series []key
	for i, dev := range d.Devices {
		for j, e := range envs {
			if e == dev.Report.Study.Baseline {
				continue
			}
			series = append(series, key{i, j})
			ch.Series = append(ch.Series, plot.IntervalSeries{Name: dev.Label + " " + e, Color: plot.Color(len(series) - 1)})
		}
	}
	for _, rw := range rowsOf(d) {
		label := rw.name + " " + rw.metric
		any := false
		for _, k := range series {
			if c := rw.cells[k.dev][envs[k.env]]; c != nil && c.OverheadPct != nil && !c.Absolute() {
				any = true
			}
		}
		if !any {
			continue
		}
		ch.Rows = append(ch.Rows, label)
		for s, k := range series {
			est, lo, hi, tip, strong := math.NaN(), math.NaN(), math.NaN(), "", false
			if c := rw.cells[k.dev][envs[k.env]]; c != nil && c.OverheadPct != nil && !c.Absolute() {
				est, strong = *c.OverheadPct, c.Significant
				if l, h, ok := report.Ends(c.OverheadCI95); ok {
					lo, hi = l, h
				}
				tip = fmt.Sprintf("%s: %s: %s", ch.Series[s].Name, label, report.OverheadText(c))
			}
			sr := &ch.Series[s]
			sr.Est, sr.Lo, sr.Hi = append(sr.Est, est), append(sr.Lo, lo), append(sr.Hi, hi)
			sr.Strong, sr.Tips = append(sr.Strong, strong), append(sr.Tips, tip)
		}
	}
	if len(ch.Rows) == 0 || len(ch.Series) == 0 {
		return report.Figure{}, false
	}
	ch.Desc = "Dots: a device's deviation from its own baseline mean; lines: the 95 % confidence interval."
	return report.Figure{ID: "overhead-by-device", Kind: "intervals", Title: ch.Title, SVG: ch.SVG(),
		Caption: "Each colour is one environment on one device, against that device's own baseline: where the intervals of two devices do not overlap, the container costs differ between the devices."}, true
}

var devicesHTML = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("devices").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>boxtax: {{.Name}} on {{len .D.Devices}} devices</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}td:first-child,td:nth-child(2){text-align:left}th.dev{background:#eef}.na{color:#999}figure{margin:1em 0}</style>
</head><body>
<h1>Study “{{.Name}}” on {{len .D.Devices}} devices</h1>
<ul>{{range .Hosts}}<li><b>{{.Label}}</b>: {{.Line}}</li>{{end}}</ul>
{{with .Fig}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>{{end}}
<table><thead><tr><th></th><th></th>{{range .D.Devices}}<th class="dev" colspan="{{$.NEnvs}}">{{.Label}}</th>{{end}}</tr>
<tr><th>workload</th><th>metric</th>{{range .D.Devices}}{{range $.Envs}}<th>{{.}}</th>{{end}}{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>
<pre>{{.Notes}}</pre>
</body></html>
`))
})

// WriteDevicesHTML renders a page: the devices, the figure by device
// (devicesFigure) and the table.
func WriteDevicesHTML(w io.Writer, d *report.Devices) error {
	envs := envsOf(d)
	type host struct{ Label, Line string }
	v := struct {
		Name  string
		D     *report.Devices
		Hosts []host
		Envs  []string
		NEnvs int
		Rows  [][]string
		Fig   *struct {
			SVG     template.HTML
			Caption string
		}
		Notes string
	}{Name: nameOf(d), D: d, Envs: envs, NEnvs: len(envs)}
	for _, dev := range d.Devices {
		v.Hosts = append(v.Hosts, host{dev.Label, hostLine(dev.Report.Host())})
	}
	v.Rows = deviceLines(d, envs)
	if f, ok := devicesFigure(d); ok {
		v.Fig = &struct {
			SVG     template.HTML
			Caption string
		}{template.HTML(f.SVG), f.Caption} // the plot package escapes every label it draws
	}
	var notes strings.Builder
	writeDeviceNotes(&notes, d)
	v.Notes = strings.TrimSpace(notes.String())
	return devicesHTML().Execute(w, v)
}
