package stats

import (
	"fmt"
	"math"
)

// MaxModelBytes bounds the memory a fit may take: the weighted model
// matrix (a row a cell, a column a coefficient) and the triangular factor
// R with its inverse (columns x columns each). Two factors of 400 levels
// and their interaction make 160,000 columns, a matrix of hundreds of GB:
// such a model is refused before anything is allocated, with its size.
const MaxModelBytes = 512 << 20

// modelBytes is the memory of a fit over rows cells and cols columns, as
// a float64 (it may be far beyond an int).
func modelBytes(rows, cols float64) float64 {
	return 8 * (rows*cols + 2*cols*cols)
}

// tooLarge is the error for a model whose fit would need more than
// MaxModelBytes; what says which matrix.
func tooLarge(what string, bytes float64, largest Term, largestCols float64) error {
	return fmt.Errorf("%s would take %s, more than the %s a fit may use: the term %s alone has %s columns; "+
		"leave out the terms of factors with many levels, or analyse fewer levels",
		what, sizeText(bytes), sizeText(MaxModelBytes), largest, countText(largestCols))
}

// sizeText is a number of bytes in binary units, e.g. "190.7 GiB".
func sizeText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if math.IsInf(b, 0) || b >= 1024 {
		return "more than 1024 EiB"
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}

// countText is a count that may be beyond an int, written whole.
func countText(n float64) string {
	if n < 1e15 {
		return fmt.Sprintf("%.0f", n)
	}
	return fmt.Sprintf("%.3g", n)
}
