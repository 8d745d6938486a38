package report

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/store"
)

// Difference is a workload parameter with which a shared cell ran in a
// study other than it did in the reference: a command or a setting of
// its own, so a difference in the figures would not be the host's or the
// environment's (issue 27: two --cmd studies of different commands were
// one cell, +12060.9 %).
type Difference struct {
	Cell      string `json:"cell"` // the workload and its levels
	Param     string `json:"param"`
	Study     int    `json:"study"`           // the index of the study that differs
	Value     string `json:"value"`           // the parameter there
	Reference string `json:"reference_value"` // and in the reference (A)
}

// String says what differs in one line: cell: parameter P is X in A, Y in B.
func (d Difference) String() string {
	return fmt.Sprintf("%s: parameter %s is %s in A, %s in %s", d.Cell, d.Param, d.Reference, d.Value, Letter(d.Study))
}

// differences are the parameters with which the shared cells ran in a
// study other than in the reference, once per row group, parameter and
// study. A parameter one study's runs do not have (a newer boxtax's) is
// not a difference, nor is the directory a program was found in
// (/usr/bin/gzip and /bin/gzip are one program).
func differences(reports []*Report, rows []CompareRow) []Difference {
	var out []Difference
	seen := map[string]bool{}
	for _, row := range rows {
		ref := runParams(reports[0], row)
		for i := 1; i < len(reports); i++ {
			other := runParams(reports[i], row)
			for _, name := range sortedKeys(ref) {
				o, ok := other[name]
				if !ok || sameParam(ref[name], o) {
					continue
				}
				key := fmt.Sprintf("%s\x00%s\x00%d", row.Name, name, i)
				if seen[key] {
					continue
				}
				seen[key] = true
				out = append(out, Difference{Cell: row.Name, Param: name, Study: i, Value: paramText(o), Reference: paramText(ref[name])})
			}
		}
	}
	return out
}

// runParams are the parameters of the first measured run of row's cell.
func runParams(r *Report, row CompareRow) map[string]any {
	var first store.Run
	found := false
	for _, run := range r.runs {
		if run.Warmup || run.Workload != row.Workload || run.Env != row.Env || levelsKey(run.Levels) != levelsKey(row.Levels) {
			continue
		}
		if !found || run.Seq < first.Seq {
			first, found = run, true
		}
	}
	if !found {
		return nil
	}
	return first.Params
}

// sameParam compares two stored parameter values as JSON, a command's
// program (the first word of a list) by its name.
func sameParam(a, b any) bool {
	return canonical(a) == canonical(b)
}

func canonical(v any) string {
	if words, ok := v.([]any); ok && len(words) > 0 {
		if first, ok := words[0].(string); ok && strings.HasPrefix(first, "/") {
			words = slices.Clone(words)
			words[0] = path.Base(first)
			v = words
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// paramText is a parameter value in a message: a list of words as one
// line in brackets (a word with blanks or quotes quoted), anything else
// as JSON.
func paramText(v any) string {
	if words, ok := v.([]any); ok {
		parts := make([]string, len(words))
		for i, w := range words {
			s, isString := w.(string)
			if !isString {
				return canonical(v)
			}
			if parts[i] = s; s == "" || strings.ContainsAny(s, " \t\n'\"") {
				parts[i] = strconv.Quote(s)
			}
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return canonical(v)
}
