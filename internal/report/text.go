package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// How the model's numbers and names read in text, for its formats.

// FmtValue prints a measured value with precision suited to its size.
func FmtValue(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.3g", v)
}

// FmtPct prints a signed percentage.
func FmtPct(p float64) string { return fmt.Sprintf("%+.1f%%", p) }

// ends is a 95 % interval's ends, and whether it has both (a stored
// interval holds nil for an end that could not be computed).
func ends(ci []*float64) (lo, hi float64, ok bool) {
	if len(ci) != 2 || ci[0] == nil || ci[1] == nil {
		return 0, 0, false
	}
	return *ci[0], *ci[1], true
}

// PctInterval is the interval ci as "[lo, hi]" in percent, and whether it
// has both ends.
func PctInterval(ci []*float64) (string, bool) {
	lo, hi, ok := ends(ci)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("[%s, %s]", FmtPct(lo), FmtPct(hi)), true
}

// SeedCell renders one table cell in the seeds' layout: the baseline as
// mean (std), any other level as % deviation (std), with * when the 95 %
// interval of the deviation excludes zero.
func SeedCell(c *Cell) string {
	switch {
	case c == nil:
		return "-"
	case c.IsBaseline:
		return fmt.Sprintf("%s (%s)", FmtValue(c.Mean), FmtValue(c.Std))
	case c.absolute:
		return fmt.Sprintf("%s (%s)", FmtValue(c.Mean), FmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s (%s) abs", FmtValue(c.Mean), FmtValue(c.Std))
	}
	star := ""
	if c.Significant {
		star = "*"
	}
	return fmt.Sprintf("%s%s (%s)", FmtPct(*c.OverheadPct), star, FmtValue(c.Std))
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// markdownEscaper makes text safe inside a Markdown table cell.
var markdownEscaper = strings.NewReplacer("|", `\|`, "~", `\~`, "\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`")

// MarkdownEscape makes text safe inside a Markdown table cell.
func MarkdownEscape(s string) string { return markdownEscaper.Replace(s) }

// latexEscaper makes text safe in LaTeX's text mode, in one pass (so the
// braces of \textbackslash{} are not escaped again).
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`^`, `\textasciicircum{}`, `_`, `\_`, `%`, `\%`, `~`, `\textasciitilde{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`, "\n", " ", "\r", " ")

// TeXEscape makes text safe in LaTeX: its special characters typeset as
// themselves.
func TeXEscape(s string) string { return latexEscaper.Replace(s) }

// OneLine keeps text on one line, as a LaTeX comment or a table cell must be.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
