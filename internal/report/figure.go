package report

import (
	"fmt"
	"strings"
)

// Figure is one plot of a report, as self-contained SVG.
type Figure struct {
	ID       string // unique in the report and safe as a file name, e.g. "mem.stream-mb-s"
	Workload string // empty for study-wide figures
	Kind     string // bars, lines, stacked, cdf, boxes, intervals
	Title    string
	Caption  string // how to read it
	Detail   bool   // a second look at numbers shown elsewhere; the HTML report folds it away
	SVG      string
}

// OverheadText is a deviation with its interval and p-value, for tooltips.
func OverheadText(c *Cell) string {
	if c.OverheadPct == nil {
		return "no deviation: " + c.OverheadNote
	}
	s := FmtPct(*c.OverheadPct)
	if ci, ok := PctInterval(c.OverheadCI95); ok {
		s += " " + ci
	}
	if c.PValue != nil {
		s += fmt.Sprintf(", p = %.2g", *c.PValue)
	}
	return s
}

// Slug joins parts into a name safe as a file name and a LaTeX label:
// lower-case letters, digits, dots and underscores, any other run of
// characters one dash.
func Slug(parts ...string) string {
	s := strings.ToLower(strings.Join(parts, "-"))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
