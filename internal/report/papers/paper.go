// Package papers holds the published tables of the seed studies, one YAML
// file per paper in this directory (embedded in the binary), and puts them
// beside a report's numbers (report --compare-paper, the HTML report's
// published values): which cell of the study matches a published row, the
// paper's statistic, the difference, and the formats that print them.
package papers

import (
	"embed"
	"fmt"
	"sort"
	"sync"

	"go.yaml.in/yaml/v3"
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
	// Unit is the unit of this row's plain numbers where the column has
	// none (a text's sentences each state a different quantity: W, ms).
	Unit string `yaml:"unit,omitempty"`
	// Words, for a number the text states in words ("doubles", "more than
	// double", "approximately half"), are those words, verbatim from the
	// quote; the value is their reading (2, 2, 0.5).
	Words string `yaml:"words,omitempty"`
}

// Column is one published quantity and the boxtax metric it
// corresponds to, if any; Levels are the setup the column is measured in
// (e.g. affinity: dedicated).
type Column struct {
	Name   string            `yaml:"name"`
	Unit   string            `yaml:"unit"`
	Levels map[string]string `yaml:"levels,omitempty"`
	Boxtax *Mapping          `yaml:"boxtax"`
	// Ambiguous, when the paper states the column's value in contradicting
	// ways, says how: nothing is compared with it, and the comparison
	// says why.
	Ambiguous string `yaml:"ambiguous,omitempty"`
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

// All lists the transcribed papers, ordered by id. They are embedded, so
// they are parsed once: a comparison reads every paper, and the YAML
// parse was most of its time (60 % of TestPublishedAndOursMeanTheSameDirection's
// hundreds of comparisons). The papers are shared: callers only read them.
func All() ([]Paper, error) { return allPapers() }

var allPapers = sync.OnceValues(parseAll)

func parseAll() ([]Paper, error) {
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
