package cli

import (
	"io"
	"regexp"
	"sync"

	"github.com/boxtax/boxtax/internal/termtext"
)

// progressLine matches the lines of the progress reporter (internal/
// progress) outside a terminal: the count at the start and the periodic
// "N/M runs done" line.
var progressLine = lazyRegexp(`^(\d+ runs to do( \(\d+ done before\))?|\d+/\d+ runs done, .*)$`)

// quietLog is what run --quiet logs through: w without the progress lines;
// warnings, failed runs and everything else still reach it.
func quietLog(w io.Writer) io.Writer {
	return termtext.Lines(func(line string) error {
		if progressLine().MatchString(line) {
			return nil
		}
		_, err := io.WriteString(w, line+"\n")
		return err
	})
}

// lazyRegexp is expr compiled on first use rather than at package init:
// every boxtax process, a worker too, pays for its package inits at start
// (issue 40). An expression that does not compile panics at that first use.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
