package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
)

// CSVOptions say how to read a CSV of the user's own: a header line, then
// one row per observation, comma-separated, fields optionally in double
// quotes (as R's write.csv writes them).
type CSVOptions struct {
	Name      string   // shown in the output, e.g. the file's name
	Responses []string // numeric columns to analyse; NA or empty is missing
	Factors   []string // categorical columns: every variable of the model
	// RunColumn, when set, names the run each row belongs to: the rows of
	// a run are then also averaged into one observation per run.
	RunColumn string
	// AppearanceOrder keeps levels in the order they first appear; by
	// default they are sorted, as R's factor() sorts them, and the first
	// is the reference level of the treatment contrasts.
	AppearanceOrder bool
	References      map[string]string // factor -> reference level
}

// csvBatch is how many rows of one cell are collected before they are
// folded into the cell's statistics.
const csvBatch = 8192

// ReadCSV reads a CSV into a per-row dataset and, when o.RunColumn is set, a
// per-run one (nil otherwise). It keeps only per-cell statistics, so a file
// of millions of rows is read in one pass in little memory.
func ReadCSV(r io.Reader, o CSVOptions) (rows, runs *Dataset, err error) {
	if len(o.Responses) == 0 {
		return nil, nil, errors.New("no responses: name the numeric columns to analyse")
	}
	if len(o.Factors) == 0 {
		return nil, nil, errors.New("no factors: give a model naming the categorical columns")
	}
	in, err := newCSVRows(r)
	if err != nil {
		return nil, nil, err
	}
	fcols := make([]int, len(o.Factors))
	idx := make([]*levelIndex, len(o.Factors))
	for i, f := range o.Factors {
		if fcols[i], err = in.column(f); err != nil {
			return nil, nil, err
		}
		idx[i] = newLevelIndex(f)
	}
	rcols, err := in.columns(o.Responses)
	if err != nil {
		return nil, nil, err
	}
	runCol := -1
	if o.RunColumn != "" {
		if runCol, err = in.column(o.RunColumn); err != nil {
			return nil, nil, err
		}
	}
	provisional := make([]stats.Factor, len(o.Factors))
	for i, f := range o.Factors {
		provisional[i] = stats.Factor{Name: f}
	}
	cells := stats.NewCells(provisional, o.Responses)
	buffers := map[string]*rowBuffer{}
	var bufferOrder []*rowBuffer // first seen first, so results do not depend on map order
	flush := func(b *rowBuffer) error {
		for i := range cells.Factors {
			cells.Factors[i].Levels = idx[i].levels
		}
		err := cells.AddColumns(b.codes, b.cols)
		for r := range b.cols {
			b.cols[r] = b.cols[r][:0]
		}
		return err
	}
	runIdx := newLevelIndex(o.RunColumn)
	var runAccs []*runAcc
	key := make([]byte, 0, 64)
	codes := make([]int, len(o.Factors))
	y := make([]float64, len(o.Responses))
	// Rows come in runs of one cell (and one run) as a study writes them:
	// a row whose factor fields equal the previous row's has its cell, and
	// needs none of the look-ups below.
	prev := make([][]byte, len(o.Factors))
	var prevRun []byte
	var b *rowBuffer
	ri := -1
	for {
		ok, err := in.next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		fields := in.fields
		if err := in.values(rcols, y); err != nil {
			return nil, nil, in.valueError(err, o.Responses)
		}
		same := b != nil
		for i, c := range fcols {
			if same && !bytes.Equal(fields[c], prev[i]) {
				same = false
			}
		}
		if !same {
			key = key[:0]
			for i, c := range fcols {
				codes[i] = idx[i].codeBytes(fields[c])
				key = strconv.AppendInt(key, int64(codes[i]), 36)
				key = append(key, ',')
				prev[i] = append(prev[i][:0], fields[c]...)
			}
			var found bool
			if b, found = buffers[string(key)]; !found {
				// The columns grow as rows come (append doubles them up to
				// csvBatch): a batch's room made at once for every cell took
				// 64 KiB a cell, 10 GB for 160,000 cells of two rows each.
				b = &rowBuffer{codes: slices.Clone(codes), cols: make([][]float64, len(y))}
				buffers[string(key)] = b
				bufferOrder = append(bufferOrder, b)
			}
		}
		for r, v := range y {
			b.cols[r] = append(b.cols[r], v)
		}
		if len(b.cols[0]) == csvBatch {
			if err := flush(b); err != nil {
				return nil, nil, err
			}
		}
		if runCol >= 0 {
			if !same || ri < 0 || !bytes.Equal(fields[runCol], prevRun) {
				ri = runIdx.codeBytes(fields[runCol])
				prevRun = append(prevRun[:0], fields[runCol]...)
			}
			if ri == len(runAccs) {
				runAccs = append(runAccs, &runAcc{codes: slices.Clone(b.codes), first: slices.Clone(y), sum: make([]float64, len(y))})
			}
			if err := runAccs[ri].add(b.codes, y); err != nil {
				return nil, nil, fmt.Errorf("line %d: run %s: %w", in.lineNo, runIdx.levels[ri], err)
			}
		}
	}
	for _, b := range bufferOrder {
		if len(b.cols[0]) > 0 {
			if err := flush(b); err != nil {
				return nil, nil, err
			}
		}
	}
	final := make([]stats.Factor, len(idx))
	for i, li := range idx {
		if final[i], err = li.ordered(!o.AppearanceOrder, o.References[li.name]); err != nil {
			return nil, nil, err
		}
	}
	for f := range o.References {
		if !slices.Contains(o.Factors, f) {
			return nil, nil, fmt.Errorf("a reference level is given for %s, which is not a factor of the model (%s)", f, strings.Join(o.Factors, ", "))
		}
	}
	if cells.N() == 0 {
		return nil, nil, errors.New("no complete rows: every row lacks a response")
	}
	units := map[string]string{}
	rows = &Dataset{Workload: o.Name, Unit: PerSlice, Observation: "row", Units: units}
	if rows.Cells, err = cells.Recode(final); err != nil {
		return nil, nil, err
	}
	if cells.Skipped() > 0 {
		rows.Notes = append(rows.Notes, fmt.Sprintf("%d rows with a missing response are left out", cells.Skipped()))
	}
	if runCol < 0 {
		return rows, nil, nil
	}
	rows.Runs = len(runAccs)
	runCells := stats.NewCells(final, o.Responses)
	for _, ra := range runAccs {
		if ra.n == 0 {
			continue
		}
		mapped := make([]int, len(ra.codes))
		for i, c := range ra.codes {
			mapped[i] = slices.Index(final[i].Levels, idx[i].levels[c])
		}
		mean := make([]float64, len(ra.sum))
		for r := range mean {
			mean[r] = ra.first[r] + ra.sum[r]/float64(ra.n)
		}
		if err := runCells.Add(mapped, mean); err != nil {
			return nil, nil, err
		}
	}
	runs = &Dataset{Workload: o.Name, Unit: PerRun, Cells: runCells, Units: units, Runs: len(runAccs)}
	return rows, runs, nil
}

// rowBuffer collects the rows of one cell until they are folded in.
type rowBuffer struct {
	codes []int
	cols  [][]float64
}

// runAcc averages the complete rows of one run, around its first row.
type runAcc struct {
	codes      []int
	first, sum []float64
	n          int
}

func (a *runAcc) add(codes []int, y []float64) error {
	if !slices.Equal(codes, a.codes) {
		return errors.New("its rows are in different cells (each run must have one level of every factor)")
	}
	for _, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	if a.n == 0 {
		copy(a.first, y)
	}
	for r, v := range y {
		a.sum[r] += v - a.first[r]
	}
	a.n++
	return nil
}
