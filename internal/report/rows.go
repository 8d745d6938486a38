package report

import "github.com/boxtax/boxtax/internal/result"

// Row is one line of the overhead table: one metric of one row group, with
// a cell per environment.
type Row struct {
	Name   string // workload and non-env levels
	Metric string // label with unit
	Cells  map[string]*Cell
}

// Rows groups the cells into table rows, leaving out secondary metrics.
func (r *Report) Rows() []Row {
	var out []Row
	index := map[string]int{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Secondary {
			continue
		}
		k := c.Group + "\x00" + c.Metric
		n, ok := index[k]
		if !ok {
			n = len(out)
			index[k] = n
			out = append(out, Row{Name: RowName(c, r.factors), Metric: c.Label, Cells: map[string]*Cell{}})
		}
		out[n].Cells[c.Env] = c
	}
	return out
}

// RowName is c's row in the tables: its workload and its levels of
// factors, as "cpu.prime threads=2".
func RowName(c *Cell, factors []string) string { return result.RowName(c.Workload, c.Levels, factors) }
