package cli

import (
	"io"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// The table's cells are marked with runes of Unicode's private use area
// while it is laid out (two a cell, so the columns stay aligned), and the
// marks become colours after termtext has made the text safe: a program's
// own escape sequences are still shown, never obeyed.
const (
	markCost  = '\uF8F0' // red: a cost, an overhead beyond noise in the worse direction
	markSame  = '\uF8F1' // green: no difference beyond noise
	markPlain = '\uF8F2' // the rest: the baseline, gains, headings
	markEnd   = '\uF8F3'
)

// colours turns the marks into ANSI colours.
var colours = strings.NewReplacer(string(markCost), "\x1b[31m", string(markSame), "\x1b[32m", string(markPlain), "", string(markEnd), "\x1b[0m")

// useColour tells whether the output to w is coloured: on a terminal,
// unless NO_COLOR is set (https://no-color.org) or TERM is dumb.
func useColour(g *Globals, w io.Writer) bool {
	if g.IsTerminal == nil || !g.IsTerminal(w) {
		return false
	}
	if g.Getenv != nil && (g.Getenv("NO_COLOR") != "" || g.Getenv("TERM") == "dumb") {
		return false
	}
	return true
}

// terminalOut is how a command writes to stdout: on a terminal with
// control characters made visible (termtext) and, where useColour, the
// text table's costs red and "no difference" green.
func terminalOut(g *Globals) io.Writer {
	if g.IsTerminal == nil || !g.IsTerminal(g.Stdout) {
		return g.Stdout
	}
	if !useColour(g, g.Stdout) {
		return termtext.NewWriter(g.Stdout)
	}
	return colourTable{termtext.NewWriter(colourWriter{g.Stdout})}
}

// colourTable is the writer the table is written to: it marks each cell
// (tables.CellStyler), and its writer makes control characters visible
// (termtext.Safe).
type colourTable struct{ *termtext.Writer }

// StyleCell implements tables.CellStyler.
func (colourTable) StyleCell(c *report.Cell, text string) string {
	mark := markPlain
	switch {
	case c == nil || c.IsBaseline || c.OverheadPct == nil:
	case !c.Significant:
		mark = markSame
	case (*c.OverheadPct > 0) != c.HigherIsBetter: // more of what is better lower, or less of what is better higher
		mark = markCost
	}
	return string(mark) + text + string(markEnd)
}

// colourWriter writes the marks as colours.
type colourWriter struct{ w io.Writer }

func (c colourWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(c.w, colours.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
