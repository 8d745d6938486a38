package stats

import (
	"fmt"
	"math"
	"slices"
)

// Cells holds sufficient statistics of multivariate observations grouped by
// cell, a combination of levels of the factors: per cell the count, the
// mean vector and the matrix of centred cross-products. For a linear model
// whose regressors are all categorical (every model of Design), they give
// the very least-squares fit, sums of squares and residual cross-products
// that the full data would, in memory that does not grow with the number
// of observations, so millions of time slices fit in a few kilobytes.
type Cells struct {
	Factors   []Factor
	Responses []string
	cells     map[string]*Cell
	order     []*Cell
	skipped   int // observations with a non-finite response, left out
}

// Cell is the statistics of one combination of levels.
type Cell struct {
	Codes []int     // the level of each factor
	N     float64   // observations
	Mean  []float64 // per response
	// Comoment is the p x p matrix (row-major) of sums of products of
	// deviations from Mean: the within-cell SSCP.
	Comoment []float64

	shift, offset []float64 // Mean = shift + offset, kept apart for accuracy
}

// NewCells prepares to collect observations of the responses by factors.
func NewCells(factors []Factor, responses []string) *Cells {
	return &Cells{Factors: factors, Responses: responses, cells: map[string]*Cell{}}
}

// List returns the cells in the order they were first seen.
func (c *Cells) List() []*Cell { return c.order }

// Skipped counts the observations left out for a non-finite response.
func (c *Cells) Skipped() int { return c.skipped }

// N is the number of observations collected.
func (c *Cells) N() float64 {
	n := 0.0
	for _, cl := range c.order {
		n += cl.N
	}
	return n
}

func (c *Cells) cell(codes []int) (*Cell, error) {
	if len(codes) != len(c.Factors) {
		return nil, fmt.Errorf("an observation has %d factor levels for %d factors", len(codes), len(c.Factors))
	}
	key := make([]byte, 0, 4*len(codes))
	for i, code := range codes {
		if code < 0 || code >= len(c.Factors[i].Levels) {
			return nil, fmt.Errorf("factor %s has no level %d", c.Factors[i].Name, code)
		}
		key = append(key, byte(code), byte(code>>8), byte(code>>16), byte(code>>24))
	}
	cl, ok := c.cells[string(key)]
	if !ok {
		p := len(c.Responses)
		cl = &Cell{Codes: append([]int(nil), codes...), Mean: make([]float64, p), Comoment: make([]float64, p*p),
			shift: make([]float64, p), offset: make([]float64, p)}
		c.cells[string(key)] = cl
		c.order = append(c.order, cl)
	}
	return cl, nil
}

// Add adds one observation: its factor levels and its responses.
func (c *Cells) Add(codes []int, y []float64) error {
	return c.AddColumns(codes, oneRow(y))
}

func oneRow(y []float64) [][]float64 {
	cols := make([][]float64, len(y))
	for i := range y {
		cols[i] = y[i : i+1]
	}
	return cols
}

// AddColumns adds many observations of one cell at once: cols[r] holds
// response r of every observation (all of equal length), e.g. the series of
// one run. The batch's mean and cross-products are computed in two passes
// and merged into the cell's with Chan et al.'s update, which keeps the
// digits of a small spread around a large mean.
func (c *Cells) AddColumns(codes []int, cols [][]float64) error {
	p := len(c.Responses)
	if len(cols) != p {
		return fmt.Errorf("%d response columns for %d responses", len(cols), p)
	}
	cl, err := c.cell(codes)
	if err != nil {
		return err
	}
	rows := 0
	if p > 0 {
		rows = len(cols[0])
	}
	for _, col := range cols {
		if len(col) != rows {
			return fmt.Errorf("response columns of unequal length (%d and %d)", rows, len(col))
		}
	}
	// Which rows are usable: every response finite.
	var keep []bool
	n := rows
	for i := 0; i < rows; i++ {
		for _, col := range cols {
			if math.IsNaN(col[i]) || math.IsInf(col[i], 0) {
				if keep == nil {
					keep = make([]bool, rows)
					for k := range keep {
						keep[k] = true
					}
				}
				keep[i] = false
			}
		}
	}
	if keep != nil {
		n = 0
		for _, k := range keep {
			if k {
				n++
			}
		}
		c.skipped += rows - n
	}
	if n == 0 {
		return nil
	}
	// Deviations are taken from the cell's shift (its first batch's mean),
	// so that a mean far from zero (timestamps, 1e9 ns) costs no digits of
	// the spread: the running statistics are of x - shift.
	if cl.N == 0 {
		for r, col := range cols {
			cl.shift[r] = twoPassMean(col, keep, n, 0)
		}
	}
	offset := make([]float64, p)
	for r, col := range cols {
		offset[r] = twoPassMean(col, keep, n, cl.shift[r])
	}
	com := make([]float64, p*p)
	dev := make([]float64, p)
	for i := 0; i < rows; i++ {
		if keep != nil && !keep[i] {
			continue
		}
		for r, col := range cols {
			dev[r] = (col[i] - cl.shift[r]) - offset[r]
		}
		for a := 0; a < p; a++ {
			da := dev[a]
			row := com[a*p : a*p+p]
			for b := a; b < p; b++ {
				row[b] += da * dev[b]
			}
		}
	}
	for a := 0; a < p; a++ {
		for b := 0; b < a; b++ {
			com[a*p+b] = com[b*p+a]
		}
	}
	cl.merge(float64(n), offset, com)
	return nil
}

// twoPassMean is the mean of col - shift over the kept rows, refined by the
// mean of the residuals.
func twoPassMean(col []float64, keep []bool, n int, shift float64) float64 {
	s := 0.0
	for i, v := range col {
		if keep == nil || keep[i] {
			s += v - shift
		}
	}
	m := s / float64(n)
	s = 0
	for i, v := range col {
		if keep == nil || keep[i] {
			s += (v - shift) - m
		}
	}
	return m + s/float64(n)
}

// merge combines a batch's statistics (its mean as an offset from the
// cell's shift, and its cross-products) into the cell's.
func (cl *Cell) merge(n float64, offset, com []float64) {
	p := len(offset)
	if cl.N == 0 {
		cl.N = n
		copy(cl.offset, offset)
		copy(cl.Comoment, com)
	} else {
		total := cl.N + n
		delta := make([]float64, p)
		for r := range offset {
			delta[r] = offset[r] - cl.offset[r]
		}
		f := cl.N * n / total
		for a := 0; a < p; a++ {
			for b := 0; b < p; b++ {
				cl.Comoment[a*p+b] += com[a*p+b] + f*delta[a]*delta[b]
			}
		}
		for r := range offset {
			cl.offset[r] += delta[r] * n / total
		}
		cl.N = total
	}
	for r := range cl.Mean {
		cl.Mean[r] = cl.shift[r] + cl.offset[r]
	}
}

// Recode returns the cells with their factors' levels put in a new order
// (the same names, e.g. sorted as R's factor() sorts them, or with a chosen
// reference level first): factors[i] must hold the levels of Factors[i].
func (c *Cells) Recode(factors []Factor) (*Cells, error) {
	if len(factors) != len(c.Factors) {
		return nil, fmt.Errorf("recoding %d factors as %d", len(c.Factors), len(factors))
	}
	maps := make([][]int, len(factors))
	for i, f := range c.Factors {
		if f.Name != factors[i].Name || len(f.Levels) != len(factors[i].Levels) {
			return nil, fmt.Errorf("factor %s cannot be recoded as %s with %d levels", f.Name, factors[i].Name, len(factors[i].Levels))
		}
		maps[i] = make([]int, len(f.Levels))
		for l, name := range f.Levels {
			maps[i][l] = slices.Index(factors[i].Levels, name)
			if maps[i][l] < 0 {
				return nil, fmt.Errorf("factor %s: level %q is missing from the new levels", f.Name, name)
			}
		}
	}
	out := NewCells(factors, c.Responses)
	out.skipped = c.skipped
	for _, cl := range c.order {
		codes := make([]int, len(cl.Codes))
		for i, code := range cl.Codes {
			codes[i] = maps[i][code]
		}
		nc, err := out.cell(codes)
		if err != nil {
			return nil, err
		}
		copy(nc.shift, cl.shift)
		nc.merge(cl.N, cl.offset, cl.Comoment)
	}
	return out, nil
}
