package stats

import (
	"fmt"
	"slices"
	"strings"
)

// Factor is a categorical variable: its name and its levels, the first the
// reference level of the treatment contrasts. Observations refer to a level
// by its index.
type Factor struct {
	Name   string
	Levels []string
}

// Design is the model matrix of a formula over factors, coded as R codes
// it: an intercept, then for each term its columns with treatment
// contrasts (one indicator per level but the reference). Within an
// interaction the first factor varies fastest. When a term's margin is
// missing from the model (a factor's main effect for a:b without b), that
// factor is coded with an indicator for every level instead, as R does.
type Design struct {
	Factors []Factor
	Terms   []Term
	Columns []Column // Columns[0] is the intercept
}

// Column is one column of the model matrix: the product of indicators
// "factor Factor is at level Level" over its parts.
type Column struct {
	Name  string // R's name, e.g. "(Intercept)", "kernelrt", "deploymentnative:kernelrt"
	Term  int    // index into Design.Terms; -1 for the intercept
	Parts []ColumnPart
}

// ColumnPart is one indicator of a column.
type ColumnPart struct{ Factor, Level int }

// NewDesign codes terms over factors. Every factor a term names must be
// among factors and have at least two levels.
func NewDesign(factors []Factor, terms []Term) (*Design, error) {
	index := map[string]int{}
	for i, f := range factors {
		index[f.Name] = i
	}
	d := &Design{Factors: factors, Terms: terms, Columns: []Column{{Name: "(Intercept)", Term: -1}}}
	present := [][]string{{}} // the intercept is the empty term
	for ti, t := range terms {
		// levels[k] lists the levels factor t[k] contributes: all but the
		// reference when the term without it is already in the model.
		levels := make([][]int, len(t))
		for k, name := range t {
			fi, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("the model names %q, which is not a factor of the data (factors: %s)", name, factorNames(factors))
			}
			n := len(factors[fi].Levels)
			if n < 2 {
				return nil, fmt.Errorf("factor %s has only one level (%s): it cannot be in the model", name, strings.Join(factors[fi].Levels, ""))
			}
			first := 0
			if containsSet(present, without(t, k)) {
				first = 1 // treatment contrasts: the reference level has no column
			}
			for l := first; l < n; l++ {
				levels[k] = append(levels[k], l)
			}
		}
		// Refused before its columns are made when the model is too
		// large to fit (counted as float64: a product of many levels
		// overflows an int).
		cols := 1.0
		for k := range t {
			cols *= float64(len(levels[k]))
		}
		if total := float64(len(d.Columns)) + cols; modelBytes(1, total) > MaxModelBytes {
			return nil, tooLarge(fmt.Sprintf("the model's %s columns", countText(total)), modelBytes(1, total), t, cols)
		}
		// All combinations, the first factor varying fastest.
		combo := make([]int, len(t))
		for {
			col := Column{Term: ti}
			var names []string
			for k, name := range t {
				fi := index[name]
				lv := levels[k][combo[k]]
				col.Parts = append(col.Parts, ColumnPart{Factor: fi, Level: lv})
				names = append(names, name+factors[fi].Levels[lv])
			}
			col.Name = strings.Join(names, ":")
			d.Columns = append(d.Columns, col)
			k := 0
			for ; k < len(t); k++ {
				combo[k]++
				if combo[k] < len(levels[k]) {
					break
				}
				combo[k] = 0
			}
			if k == len(t) {
				break
			}
		}
		present = append(present, []string(t))
	}
	return d, nil
}

// Row writes the model-matrix row of an observation whose factor levels
// are codes (codes[i] indexes Factors[i].Levels).
func (d *Design) Row(codes []int, row []float64) {
	for j, c := range d.Columns {
		v := 1.0
		for _, p := range c.Parts {
			if codes[p.Factor] != p.Level {
				v = 0
				break
			}
		}
		row[j] = v
	}
}

// without returns t without its k-th factor.
func without(t Term, k int) []string {
	out := slices.Clone([]string(t[:k]))
	return append(out, t[k+1:]...)
}

func factorNames(fs []Factor) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// largestTerm is the term with the most columns, and how many.
func (d *Design) largestTerm() (Term, float64) {
	count := make([]float64, len(d.Terms))
	for _, c := range d.Columns {
		if c.Term >= 0 {
			count[c.Term]++
		}
	}
	best := 0
	for t := range count {
		if count[t] > count[best] {
			best = t
		}
	}
	if len(d.Terms) == 0 {
		return Term{"(Intercept)"}, 1
	}
	return d.Terms[best], count[best]
}
