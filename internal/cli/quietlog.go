package cli

import (
	"io"
	"regexp"

	"github.com/boxtax/boxtax/internal/termtext"
)

// progressLine matches the lines of the progress reporter (internal/
// progress) outside a terminal: the count at the start and the periodic
// "N/M runs done" line.
var progressLine = regexp.MustCompile(`^(\d+ runs to do( \(\d+ done before\))?|\d+/\d+ runs done, .*)$`)

// quietLog is what run --quiet logs through: w without the progress lines;
// warnings, failed runs and everything else still reach it.
func quietLog(w io.Writer) io.Writer {
	return termtext.Lines(func(line string) error {
		if progressLine.MatchString(line) {
			return nil
		}
		_, err := io.WriteString(w, line+"\n")
		return err
	})
}
