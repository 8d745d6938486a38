package report

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVWriter writes CSV whose text cells a spreadsheet cannot take for a
// formula: a cell that starts with =, +, -, @, a tab or a carriage return
// and is not a number gets a leading apostrophe, as OWASP's advice on CSV
// injection says. Numbers (-1.5, +3, 1e-9) are written as they are, so the
// data stays numeric; a workload name, level or note never runs as a formula.
type CSVWriter struct{ *csv.Writer }

// NewCSVWriter is a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) CSVWriter { return CSVWriter{csv.NewWriter(w)} }

// Write writes one record with every text cell made inert.
func (c CSVWriter) Write(record []string) error {
	safe := make([]string, len(record))
	for i, cell := range record {
		safe[i] = inertCell(cell)
	}
	return c.Writer.Write(safe)
}

// inertCell is cell with a leading apostrophe when a spreadsheet would
// read it as a formula.
func inertCell(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(cell, 64); err == nil {
			return cell
		}
		return "'" + cell
	}
	return cell
}
