// Package papers holds the published tables of the seed studies, one YAML
// file per paper in this directory (embedded in the binary), and puts them
// beside a report's numbers (report --compare-paper, the HTML report's
// published values): which cell of the study matches a published row, the
// paper's statistic, the difference, and the formats that print them.
package papers

import (
	"embed"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/workload"
)

// The published tables of the seed studies, transcribed one file per paper.
//
//go:embed *.yaml
var paperFiles embed.FS

// Paper is one published study's tables, as transcribed in papers/ID.yaml.
type Paper struct {
	ID             string       `yaml:"id"`
	Short          string       `yaml:"short"`
	Citation       string       `yaml:"citation"`
	Source         string       `yaml:"source"`
	Setup          string       `yaml:"setup"`
	Configurations []Conf       `yaml:"configurations"`
	Devices        []Device     `yaml:"devices"`
	Corrections    []Correction `yaml:"corrections"`
	// Statistic is how the paper made a printed value of its runs, when it
	// says and it is not the mean; --compare-paper computes the same.
	Statistic *Statistic `yaml:"statistic,omitempty"`
	// Method lists the paper's settings a study reproducing it sets too;
	// a preset that differs states why (paper.deviations in its spec).
	Method []Method `yaml:"method,omitempty"`
	Tables []Table  `yaml:"tables"`
}

// Conf maps one of the paper's configurations to a boxtax environment.
type Conf struct {
	Name string `yaml:"name"`
	Env  string `yaml:"env"`
}

// Correction records where a transcription departs from the printed text,
// and why. Printed and Reads, when given, are the cell as printed and as
// transcribed: the test that checks every value against the seed text by its
// position accepts Reads where the text has Printed.
type Correction struct {
	Table   string `yaml:"table"`
	Text    string `yaml:"text"`
	Printed string `yaml:"printed,omitempty"`
	Reads   string `yaml:"reads,omitempty"`
}

// Device is a machine the paper measured.
type Device struct {
	ID          string `yaml:"id"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// Table is one published table: columns, and per device and row the
// printed cells, exactly as printed: "mean (std)", "+x% (std)", or a plain
// number ("9.74", "14 399 960", "0,005", "(0,298)", "< 2.2e-16", "2%"); ""
// for a blank cell. The rows are the paper's configurations unless the table
// lists its own (rows:, e.g. one per number of devices).
//
// Levels say under which setup the paper measured, as boxtax factor levels
// or workload parameters (wire: netns:100mbit, nodes: 2): --compare-paper
// compares only a cell of this study with the same levels, and says so
// where there is none. Table, column and row levels add up (the row's win).
type Table struct {
	Table   string `yaml:"table"`
	Caption string `yaml:"caption"` // how the source's caption line begins, e.g. "TABLE III."
	Title   string `yaml:"title"`
	Tool    string `yaml:"tool"`
	Note    string `yaml:"note"`
	Env     string `yaml:"env,omitempty"` // the environment of rows that name none
	// Sign is how the table's percentages read (SignSigned, SignLower,
	// SignHigher); a row may say otherwise. Required where any is printed.
	Sign   string            `yaml:"sign,omitempty"`
	Levels map[string]string `yaml:"levels,omitempty"` // the paper's setup for the whole table
	Rows   []RowSpec         `yaml:"rows,omitempty"`   // the table's own rows; default: the configurations
	// Quotes, for a figure whose numbers only the text states (seed 004),
	// are the sentences its values come from, verbatim.
	Quotes []string `yaml:"quotes,omitempty"`
	// Transposed: the source prints one row per device (labelled with the
	// device's name) and the table's single row as its columns.
	Transposed bool                           `yaml:"transposed,omitempty"`
	Columns    []Column                       `yaml:"columns"`
	Values     map[string]map[string][]string `yaml:"values"` // device -> row (configuration) -> one cell per column
}

// RowSpec is one row of a table with rows of its own: its label as
// printed, the environment and levels it corresponds to. Quote, for numbers
// stated in a paper's text, is the sentence they are printed in.
type RowSpec struct {
	Name   string            `yaml:"name"`
	Env    string            `yaml:"env,omitempty"`
	Levels map[string]string `yaml:"levels,omitempty"`
	Quote  string            `yaml:"quote,omitempty"`
	// Boxtax, when set, maps this row's numbers instead of the column's
	// mapping: the sentences of a text each state a different quantity.
	Boxtax *Mapping `yaml:"boxtax,omitempty"`
	Note   string   `yaml:"note,omitempty"`
	Sign   string   `yaml:"sign,omitempty"` // the table's sign convention, for this row
}

// Column is one published quantity and the boxtax metric it
// corresponds to, if any; Levels are the setup the column is measured in
// (e.g. affinity: dedicated).
type Column struct {
	Name   string            `yaml:"name"`
	Unit   string            `yaml:"unit"`
	Levels map[string]string `yaml:"levels,omitempty"`
	Boxtax *Mapping          `yaml:"boxtax"`
}

// Mapping names the boxtax workload and metric measuring the same
// thing. Scale converts the paper's unit into the metric's (bonnie++ K/s to
// MB/s: 0.001024); Where selects cells by factor level or workload
// parameter (e.g. protocol: udp).
type Mapping struct {
	Workload string            `yaml:"workload"`
	Metric   string            `yaml:"metric"`
	Scale    float64           `yaml:"scale"`
	Where    map[string]string `yaml:"where"`
}

// All lists the transcribed papers, ordered by id.
func All() ([]Paper, error) {
	entries, err := paperFiles.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []Paper
	for _, e := range entries {
		b, err := paperFiles.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		var p Paper
		if err := yaml.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("papers/%s: %w", e.Name(), err)
		}
		if err := p.check(); err != nil {
			return nil, fmt.Errorf("papers/%s: %w", e.Name(), err)
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// IDs lists the ids of the transcribed papers.
func IDs() []string {
	ps, _ := All()
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return ids
}

// check verifies that every printed cell parses and every row has a cell
// per column.
func (p Paper) check() error {
	devices, confs := map[string]bool{}, map[string]bool{}
	for _, d := range p.Devices {
		devices[d.ID] = true
	}
	for _, c := range p.Configurations {
		confs[c.Name] = true
	}
	tables := map[string]bool{}
	for _, t := range p.Tables {
		tables[t.Table] = true
	}
	for _, c := range p.Corrections {
		if !tables[c.Table] {
			return fmt.Errorf("correction names table %q, which is not transcribed", c.Table)
		}
	}
	if err := p.Statistic.check(); err != nil {
		return err
	}
	for _, t := range p.Tables {
		rows, specs := confs, map[string]RowSpec{}
		for _, r := range t.Rows {
			specs[r.Name] = r
		}
		if len(t.Rows) > 0 {
			rows = map[string]bool{}
			for _, r := range t.Rows {
				if rows[r.Name] {
					return fmt.Errorf("table %s: row %q is listed twice", t.Table, r.Name)
				}
				rows[r.Name] = true
			}
		}
		for dev, byConf := range t.Values {
			if !devices[dev] {
				return fmt.Errorf("table %s: unknown device %q", t.Table, dev)
			}
			for conf, cells := range byConf {
				if !rows[conf] {
					return fmt.Errorf("table %s: unknown row or configuration %q", t.Table, conf)
				}
				if len(cells) != len(t.Columns) {
					return fmt.Errorf("table %s, %s %s: %d cells for %d columns", t.Table, dev, conf, len(cells), len(t.Columns))
				}
				for _, cell := range cells {
					pub, err := parsePublished(cell)
					if err == nil && pub.pct {
						err = checkSign(t.signOf(specs[conf]), cell)
					}
					if err != nil {
						return fmt.Errorf("table %s, %s %s: %w", t.Table, dev, conf, err)
					}
				}
			}
		}
	}
	return nil
}

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
			pc.Notes = append(pc.Notes, fmt.Sprintf("Statistic: this machine's value is the paper's (%s), the mean of the runs beside it: %q", p.Statistic.Method, p.Statistic.Quote))
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
						v := signedPct(pub.value, sign)
						pct, row.Sign = &v, sign
						text = signedText(text, pub.value, sign)
					} else {
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
				fillOurs(r, &row, mapping, absolute, p.Statistic)
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
