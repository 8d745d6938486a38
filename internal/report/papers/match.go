package papers

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

// mergeLevels joins the levels of a table, a column and a row; later ones win.
func mergeLevels(ls ...map[string]string) map[string]string {
	var out map[string]string
	for _, l := range ls {
		for k, v := range l {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// levelDefaults are the levels of reserved factors a study that does not
// vary them runs at.
var levelDefaults = map[string]string{"wire": "host", "instances": "1"}

// findCells returns the cells (in report order) of the mapped metric in env
// whose levels or run parameters match want. When none does, missing says
// which wanted level this study lacks and what it ran instead.
func findCells(r *report.Report, m *Mapping, env string, want map[string]string) (matches []*report.Cell, missing string) {
	var candidates []*report.Cell
	for i := range r.Cells {
		x := &r.Cells[i]
		if x.Workload == m.Workload && x.Metric == m.Metric && x.Env == env {
			candidates = append(candidates, x)
		}
	}
	if len(candidates) == 0 {
		return nil, ""
	}
	for _, x := range candidates {
		if cellMatches(r, x, want) {
			matches = append(matches, x)
		}
	}
	if len(matches) > 0 {
		return matches, ""
	}
	// Name the first wanted level no candidate has, and what the study ran.
	for _, k := range slices.Sorted(maps.Keys(want)) {
		ran := map[string]bool{}
		ok := false
		for _, x := range candidates {
			v := levelOf(r, x, k)
			ran[v] = true
			ok = ok || levelEqual(v, want[k])
		}
		if !ok {
			var vs []string
			for v := range ran {
				if v == "" {
					v = "(not set)"
				}
				vs = append(vs, v)
			}
			sort.Slice(vs, func(i, j int) bool { return report.NaturalLess(vs[i], vs[j]) })
			return nil, fmt.Sprintf("no cell with %s=%s (this study ran %s=%s)", k, want[k], k, strings.Join(vs, ", "))
		}
	}
	return nil, fmt.Sprintf("no cell with %s together", levelList(want))
}

// levelOf is a cell's level of a factor, else its workload parameter of that
// name, else the default of a reserved factor the study did not vary.
func levelOf(r *report.Report, c *report.Cell, k string) string {
	if v, ok := c.Levels[k]; ok {
		return v
	}
	if p, ok := r.Param(c, k); ok {
		return p
	}
	return levelDefaults[k]
}

func cellMatches(r *report.Report, c *report.Cell, want map[string]string) bool {
	for k, v := range want {
		if !levelEqual(levelOf(r, c, k), v) {
			return false
		}
	}
	return true
}

// levelEqual compares levels as written: case aside, and numbers by value
// (870 and 870.0 are one level).
func levelEqual(a, b string) bool {
	if strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

func levelList(l map[string]string) string {
	if len(l) == 0 {
		return "no levels"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(l)) {
		parts = append(parts, k+"="+l[k])
	}
	return strings.Join(parts, " ")
}
