package report

import (
	"embed"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/boxtax/boxtax/internal/workload"
)

// The published tables of the seed studies, transcribed one file per paper.
//
//go:embed papers/*.yaml
var paperFiles embed.FS

// Paper is one published study's tables, as transcribed in papers/ID.yaml.
type Paper struct {
	ID             string        `yaml:"id"`
	Short          string        `yaml:"short"`
	Citation       string        `yaml:"citation"`
	Source         string        `yaml:"source"`
	Setup          string        `yaml:"setup"`
	Configurations []PaperConf   `yaml:"configurations"`
	Devices        []PaperDevice `yaml:"devices"`
	Corrections    []Correction  `yaml:"corrections"`
	Tables         []PaperTable  `yaml:"tables"`
}

// PaperConf maps one of the paper's configurations to a boxtax environment.
type PaperConf struct {
	Name string `yaml:"name"`
	Env  string `yaml:"env"`
}

// Correction records where a transcription departs from the printed text,
// and why.
type Correction struct {
	Table string `yaml:"table"`
	Text  string `yaml:"text"`
}

// PaperDevice is a machine the paper measured.
type PaperDevice struct {
	ID          string `yaml:"id"`
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// PaperTable is one published table: columns, and per device and
// configuration the printed cells, "mean (std)" or "+x% (std)".
type PaperTable struct {
	Table   string                         `yaml:"table"`
	Title   string                         `yaml:"title"`
	Tool    string                         `yaml:"tool"`
	Note    string                         `yaml:"note"`
	Columns []PaperColumn                  `yaml:"columns"`
	Values  map[string]map[string][]string `yaml:"values"` // device -> configuration -> one cell per column
}

// PaperColumn is one published quantity and the boxtax metric it
// corresponds to, if any.
type PaperColumn struct {
	Name   string        `yaml:"name"`
	Unit   string        `yaml:"unit"`
	Boxtax *PaperMapping `yaml:"boxtax"`
}

// PaperMapping names the boxtax workload and metric measuring the same
// thing. Scale converts the paper's unit into the metric's (bonnie++ K/s to
// MB/s: 0.001024); Where selects cells by factor level or workload
// parameter (e.g. protocol: udp).
type PaperMapping struct {
	Workload string            `yaml:"workload"`
	Metric   string            `yaml:"metric"`
	Scale    float64           `yaml:"scale"`
	Where    map[string]string `yaml:"where"`
}

// Papers lists the transcribed papers, ordered by id.
func Papers() ([]Paper, error) {
	entries, err := paperFiles.ReadDir("papers")
	if err != nil {
		return nil, err
	}
	var out []Paper
	for _, e := range entries {
		b, err := paperFiles.ReadFile(path.Join("papers", e.Name()))
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

// PaperIDs lists the ids of the transcribed papers.
func PaperIDs() []string {
	ps, _ := Papers()
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
	for _, t := range p.Tables {
		for dev, byConf := range t.Values {
			if !devices[dev] {
				return fmt.Errorf("table %s: unknown device %q", t.Table, dev)
			}
			for conf, cells := range byConf {
				if !confs[conf] {
					return fmt.Errorf("table %s: unknown configuration %q", t.Table, conf)
				}
				if len(cells) != len(t.Columns) {
					return fmt.Errorf("table %s, %s %s: %d cells for %d columns", t.Table, dev, conf, len(cells), len(t.Columns))
				}
				for _, cell := range cells {
					if _, err := parsePublished(cell); err != nil {
						return fmt.Errorf("table %s, %s %s: %w", t.Table, dev, conf, err)
					}
				}
			}
		}
	}
	return nil
}

// published is one printed cell.
type published struct {
	value, std float64
	pct        bool // value is a % deviation
}

// publishedCell is "mean (std)" or "+x% (std)"; the std may be missing
// where a paper states a number in its text without one (seed 004).
var publishedCell = regexp.MustCompile(`^\s*([+-]?[0-9.]+)\s*(%?)\s*(?:\(\s*([0-9.]+)\s*\))?\s*$`)

func parsePublished(s string) (published, error) {
	m := publishedCell.FindStringSubmatch(s)
	if m == nil {
		return published{}, fmt.Errorf("cannot read %q: want \"mean (std)\" or \"+x%% (std)\" (the std may be left out where the paper states none)", s)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return published{}, fmt.Errorf("cannot read %q: %q is not a number", s, m[1])
	}
	sd := math.NaN() // not published
	if m[3] != "" {
		sd, _ = strconv.ParseFloat(m[3], 64)
	}
	return published{value: v, std: sd, pct: m[2] == "%"}, nil
}

// PaperComparison is one published table beside this study's numbers.
type PaperComparison struct {
	Paper    string   `json:"paper"`
	Citation string   `json:"citation"`
	Source   string   `json:"source"`
	Setup    string   `json:"setup"`
	Table    string   `json:"table"` // "Table III"
	Title    string   `json:"title"`
	Devices  []string `json:"devices"` // the paper's machines, one published column each
	// DeviceInfo describes each device: "RPi 2: Raspberry Pi 2 model B: ...".
	DeviceInfo []string   `json:"device_info"`
	Rows       []PaperRow `json:"rows"`
	Notes      []string   `json:"notes"`
}

// PaperRow is one published quantity in one configuration, on every device
// of the paper and on this machine.
type PaperRow struct {
	Column    string   `json:"column"` // e.g. "SCALE, Mb/s"
	Conf      string   `json:"conf"`   // the paper's configuration
	Env       string   `json:"env"`    // the boxtax environment it corresponds to
	First     bool     `json:"-"`      // first row of its column
	Published []string `json:"published"`
	// PublishedPct holds the published % deviations (null for the baseline).
	PublishedPct []*float64 `json:"published_pct"`
	Boxtax       string     `json:"boxtax"` // the metric compared, or why there is none
	Status       string     `json:"status"` // measured, not measured, no equivalent
	Ours         string     `json:"ours"`   // this machine, in the table layout
	OursPct      *float64   `json:"ours_pct"`
	OursCI95     []*float64 `json:"ours_ci95,omitempty"`
	OursMean     *float64   `json:"ours_mean,omitempty"` // in the boxtax metric's unit
}

// Comparison statuses.
const (
	PaperMeasured     = "measured"
	PaperNotMeasured  = "not measured"
	PaperNoEquivalent = "no equivalent"
)

// ComparePaper puts every table of the paper with the given id beside the
// report's numbers. An unknown id lists the valid ones.
func ComparePaper(r *Report, id string) ([]PaperComparison, error) {
	ps, err := Papers()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p.compare(r), nil
		}
	}
	return nil, fmt.Errorf("unknown paper %q; valid papers: %s", id, strings.Join(PaperIDs(), ", "))
}

// ComparePapers returns the published tables of every paper that share at
// least one measured metric with the report: what the HTML report shows.
func ComparePapers(r *Report) []PaperComparison {
	ps, _ := Papers()
	var out []PaperComparison
	for _, p := range ps {
		for _, c := range p.compare(r) {
			for _, row := range c.Rows {
				if row.Status == PaperMeasured {
					out = append(out, c)
					break
				}
			}
		}
	}
	return out
}

func (p Paper) compare(r *Report) []PaperComparison {
	var out []PaperComparison
	for _, t := range p.Tables {
		pc := PaperComparison{Paper: p.ID, Citation: strings.TrimSpace(p.Citation), Source: p.Source, Setup: strings.TrimSpace(p.Setup),
			Table: t.label(), Title: t.Title}
		var devs []PaperDevice
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
		for _, c := range p.Corrections {
			if c.Table == t.Table {
				pc.Notes = append(pc.Notes, "Transcription: "+c.Text)
			}
		}
		for ci, col := range t.Columns {
			first := true
			for _, conf := range p.Configurations {
				printed := false
				row := PaperRow{Column: col.Name + ", " + col.Unit, Conf: conf.Name, Env: conf.Env}
				for _, d := range devs {
					cells, ok := t.Values[d.ID][conf.Name]
					if !ok {
						row.Published, row.PublishedPct = append(row.Published, "–"), append(row.PublishedPct, nil)
						continue
					}
					printed = true
					pub, _ := parsePublished(cells[ci])
					text := strings.TrimSpace(cells[ci])
					var pct *float64
					if pub.pct {
						v := pub.value
						pct = &v
					} else if col.Boxtax != nil && col.Boxtax.Scale != 0 && col.Boxtax.Scale != 1 {
						text += fmt.Sprintf(" = %s %s", fmtValue(pub.value*col.Boxtax.Scale), r.unitOf(col.Boxtax))
					}
					row.Published, row.PublishedPct = append(row.Published, text), append(row.PublishedPct, pct)
				}
				r.fillOurs(&row, col.Boxtax)
				if !printed && row.Status != PaperMeasured {
					continue // neither published nor measured here
				}
				row.First, first = first, false
				pc.Rows = append(pc.Rows, row)
			}
		}
		out = append(out, pc)
	}
	return out
}

// unitOf is the unit of a mapped metric as the workload declares it.
func (r *Report) unitOf(m *PaperMapping) string {
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

// fillOurs finds this study's cell for a published row.
func (r *Report) fillOurs(row *PaperRow, m *PaperMapping) {
	if m == nil {
		row.Status, row.Boxtax, row.Ours = PaperNoEquivalent, "no boxtax equivalent", "–"
		return
	}
	row.Boxtax = m.Workload + " " + m.Metric
	if wl, err := workload.Lookup(m.Workload); err == nil {
		if met, ok := wl.Info().Metric(m.Metric); ok {
			row.Boxtax = m.Workload + " " + met.Label
		} else if met, ok := runMetric(m.Metric); ok {
			row.Boxtax = m.Workload + " " + met.Label
		} else {
			row.Status, row.Ours = PaperNotMeasured, "not measured in this study"
			row.Boxtax += fmt.Sprintf(" (boxtax's %s has no metric %s: papers/*.yaml needs updating)", m.Workload, m.Metric)
			return
		}
	}
	for _, k := range sortedKeys(m.Where) {
		row.Boxtax += fmt.Sprintf(" %s=%s", k, m.Where[k])
	}
	c := r.findCell(m, row.Env)
	if c == nil || c.N == 0 {
		row.Status, row.Ours = PaperNotMeasured, "not measured in this study"
		return
	}
	row.Status = PaperMeasured
	if sfx := strings.TrimPrefix(rowName(c, r.factors), c.Workload); sfx != "" && len(m.Where) == 0 {
		row.Boxtax += " (" + strings.TrimSpace(sfx) + ")"
	}
	mean := c.Mean
	row.OursMean = &mean
	row.Ours = seedCell(c)
	if !c.IsBaseline && c.OverheadPct != nil {
		pct := *c.OverheadPct
		row.OursPct = &pct
		row.OursCI95 = c.OverheadCI95
		if c.OverheadCI95[0] != nil && c.OverheadCI95[1] != nil {
			row.Ours = fmt.Sprintf("%s [%s, %s]", row.Ours, fmtPct(*c.OverheadCI95[0]), fmtPct(*c.OverheadCI95[1]))
		}
	}
}

// findCell returns the first cell (in report order) of the mapped metric in
// env whose levels or run parameters match the mapping's Where.
func (r *Report) findCell(m *PaperMapping, env string) *Cell {
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload != m.Workload || c.Metric != m.Metric || c.Env != env {
			continue
		}
		if r.cellMatches(c, m.Where) {
			return c
		}
	}
	return nil
}

func (r *Report) cellMatches(c *Cell, where map[string]string) bool {
	for k, want := range where {
		if v, ok := c.Levels[k]; ok {
			if v != want {
				return false
			}
			continue
		}
		found := false
		for _, run := range r.runs {
			if run.Workload == c.Workload && run.Env == c.Env && groupKey(run.CellKey) == c.group {
				if p, ok := run.Params[k]; ok && fmt.Sprint(p) == want {
					found = true
					break
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
