package papers

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/workload"
)

// Compare puts every table of the paper with the given id beside the
// report's numbers. An unknown id lists the valid ones.
func Compare(r *report.Report, id string) ([]report.PaperComparison, error) {
	ps, err := All()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p.compare(r), nil
		}
	}
	return nil, fmt.Errorf("unknown paper %q; valid papers: %s", id, strings.Join(IDs(), ", "))
}

// Shared returns the published tables of every paper that share at
// least one measured metric with the report: what the HTML report shows.
func Shared(r *report.Report) []report.PaperComparison {
	ps, _ := All()
	var out []report.PaperComparison
	for _, p := range ps {
		for _, c := range p.compare(r) {
			for _, row := range c.Rows {
				if row.Status == report.PaperMeasured {
					out = append(out, c)
					break
				}
			}
		}
	}
	return out
}

func (p Paper) compare(r *report.Report) []report.PaperComparison {
	var out []report.PaperComparison
	for _, t := range p.Tables {
		pc := report.PaperComparison{Paper: p.ID, Citation: strings.TrimSpace(p.Citation), Source: p.Source, Setup: strings.TrimSpace(p.Setup),
			Table: t.label(), Title: t.Title}
		var devs []Device
		for _, d := range p.Devices {
			if _, ok := t.Values[d.ID]; ok {
				devs = append(devs, d)
				pc.Devices = append(pc.Devices, d.Name)
				pc.DeviceInfo = append(pc.DeviceInfo, d.Name+": "+d.Description)
			}
		}
		if t.Note != "" {
			pc.Notes = append(pc.Notes, strings.TrimSpace(t.Note))
		}
		if p.Statistic != nil {
			note := fmt.Sprintf("Statistic: this machine's value is the paper's (%s), the mean of the runs beside it: %q", p.Statistic.Method, p.Statistic.Quote)
			if r := strings.TrimSpace(p.Statistic.Reading); r != "" {
				note += "; " + r
			}
			pc.Notes = append(pc.Notes, note)
		}
		for _, row := range t.Rows {
			if row.Note != "" {
				pc.Notes = append(pc.Notes, row.Name+": "+strings.TrimSpace(row.Note))
			}
		}
		for _, c := range p.Corrections {
			if c.Table == t.Table {
				pc.Notes = append(pc.Notes, "Transcription: "+c.Text)
			}
		}
		rows := t.Rows
		if len(rows) == 0 {
			for _, c := range p.Configurations {
				rows = append(rows, RowSpec{Name: c.Name, Env: c.Env})
			}
		}
		for ci, col := range t.Columns {
			first := true
			for _, spec := range rows {
				printed := false
				env := spec.Env
				if env == "" {
					env = t.Env
				}
				levels := mergeLevels(t.Levels, col.Levels, spec.Levels)
				row := report.PaperRow{Column: strings.TrimSuffix(col.Name+", "+col.Unit, ", "), Conf: spec.Name, Env: env, Levels: levels}
				absolute := false
				sign := t.signOf(spec)
				var pubs []published
				var signs []string
				for _, d := range devs {
					cells, ok := t.Values[d.ID][spec.Name]
					pub := published{blank: true}
					if ok {
						pub, _ = parsePublished(cells[ci])
					}
					pubs, signs = append(pubs, pub), append(signs, sign)
					if pub.blank {
						row.Published, row.PublishedPct = append(row.Published, "–"), append(row.PublishedPct, nil)
						continue
					}
					text := strings.TrimSpace(cells[ci])
					printed = true
					var pct *float64
					if pub.pct {
						if v, ok := signedPct(pub.value, sign); ok {
							pct = &v
						}
						row.Sign = sign
						text = signedText(text, pub.value, sign)
					} else {
						if spec.Unit != "" {
							text += " " + spec.Unit
						}
						absolute = absolute || !pub.pct
						if col.Boxtax != nil && col.Boxtax.Scale != 0 && col.Boxtax.Scale != 1 {
							text += fmt.Sprintf(" = %s %s", report.FmtValue(pub.value*col.Boxtax.Scale), unitOf(col.Boxtax))
						}
					}
					row.Published, row.PublishedPct = append(row.Published, text), append(row.PublishedPct, pct)
				}
				mapping := col.Boxtax
				if spec.Boxtax != nil {
					mapping = spec.Boxtax
				}
				if col.Ambiguous != "" {
					row.Status, row.Boxtax = report.PaperNotMeasured, "not compared: the paper is ambiguous"
					row.Missing = strings.TrimSpace(col.Ambiguous)
					row.Ours = "not compared: " + row.Missing
					mapping = nil
				} else {
					fillOurs(r, &row, mapping, absolute, p.Statistic)
				}
				if mapping != nil {
					fillDiff(&row, pubs, signs, mapping.Scale)
				}
				if !printed && (row.Status != report.PaperMeasured || spec.Boxtax != nil) {
					continue // neither published nor measured here
				}
				row.OwnMapping = spec.Boxtax != nil
				row.First, first = first, false
				pc.Rows = append(pc.Rows, row)
			}
		}
		out = append(out, pc)
	}
	return out
}

// unitOf is the unit of a mapped metric as the workload declares it.
func unitOf(m *Mapping) string {
	if wl, err := workload.Lookup(m.Workload); err == nil {
		if met, ok := wl.Info().Metric(m.Metric); ok {
			return met.Unit
		}
	}
	if met, ok := runMetric(m.Metric); ok {
		return met.Unit
	}
	return ""
}

// fillOurs finds this study's cell for a published row: the mapped metric
// in the row's environment whose levels (and run parameters) match the
// mapping's Where and the row's levels. Where this study has no such cell it
// says so and compares nothing else. absolute: the paper printed values, not
// deviations, so ours are shown as values too.
func fillOurs(r *report.Report, row *report.PaperRow, m *Mapping, absolute bool, st *Statistic) {
	if m == nil {
		row.Status, row.Boxtax, row.Ours = report.PaperNoEquivalent, "no boxtax equivalent", "–"
		return
	}
	row.Boxtax = m.Workload + " " + m.Metric
	if wl, err := workload.Lookup(m.Workload); err == nil {
		if met, ok := wl.Info().Metric(m.Metric); ok {
			row.Boxtax = m.Workload + " " + met.Label
		} else if met, ok := runMetric(m.Metric); ok {
			row.Boxtax = m.Workload + " " + met.Label
		} else if !IsHostMetric(m.Metric) {
			row.Status, row.Ours = report.PaperNotMeasured, "not measured in this study"
			row.Boxtax += fmt.Sprintf(" (boxtax's %s has no metric %s: papers/*.yaml needs updating)", m.Workload, m.Metric)
			return
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m.Where)) {
		row.Boxtax += fmt.Sprintf(" %s=%s", k, m.Where[k])
	}
	want := mergeLevels(m.Where, row.Levels)
	matches, missing := findCells(r, m, row.Env, want)
	if len(matches) > 1 {
		// The paper leaves a level open that this study varied: which of
		// the cells it corresponds to is unknown, so none is compared.
		var names []string
		for _, x := range matches {
			names = append(names, strings.TrimSpace(report.RowName(x, r.Factors())))
		}
		row.Status, row.Missing = report.PaperNotMeasured, fmt.Sprintf("%d cells match (%s) and the paper fixes only %s, so none is compared", len(matches), strings.Join(names, "; "), levelList(want))
		row.Ours = "not compared: " + row.Missing
		return
	}
	var c *report.Cell
	if len(matches) == 1 {
		c = matches[0]
	}
	if c == nil || c.N == 0 {
		row.Status, row.Ours, row.Missing = report.PaperNotMeasured, "not measured in this study", missing
		if missing != "" {
			row.Ours = "not measured: " + missing
		}
		return
	}
	row.Status = report.PaperMeasured
	row.Cell = strings.TrimSpace(report.RowName(c, r.Factors())) + " @ " + c.Env
	mean := c.Mean
	row.OursMean = &mean
	v, name := statistic(r, c, st)
	row.OursStat, row.Statistic = &v, name
	row.Ours = report.SeedCell(c)
	if absolute && !c.IsBaseline {
		row.Ours = fmt.Sprintf("%s (%s)", report.FmtValue(c.Mean), report.FmtValue(c.Std))
	}
	if st != nil {
		row.Ours = fmt.Sprintf("%s; mean %s", report.FmtValue(v), row.Ours)
	}
	if !c.IsBaseline && c.OverheadPct != nil {
		pct := *c.OverheadPct
		row.OursPct = &pct
		row.OursCI95 = c.OverheadCI95
		row.OursSignificant = c.Significant
		if ci, ok := report.PctInterval(c.OverheadCI95); ok {
			if absolute {
				row.Ours += fmt.Sprintf(", %s %s", report.FmtPct(pct), ci)
			} else {
				row.Ours += " " + ci
			}
		}
	}
}

// IsHostMetric tells the metrics every workload's runs carry when the
// monitors ran: host readings (mon.power_W) and energy (energy.power_avg_W).
func IsHostMetric(metric string) bool {
	return strings.HasPrefix(metric, "mon.") || strings.HasPrefix(metric, "energy.")
}
