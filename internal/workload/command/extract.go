package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
	"github.com/boxtax/boxtax/internal/workload"
)

// Extract is one metric the user asks for, read from the program's output
// by a regular expression or, from JSON output, by a path.
type Extract struct {
	Name           string `json:"name"`
	Unit           string `json:"unit,omitempty"`
	HigherIsBetter bool   `json:"higher_is_better"`
	Regex          string `json:"regex,omitempty"` // its first group (or the whole match) is the number; the last match counts
	JSON           string `json:"json,omitempty"`  // e.g. .jobs[0].read.iops
	label          string // the name as given, when it was not a metric name (events/s)
	re             *regexp.Regexp
	path           []any // string keys and int indexes
}

// how says where e is read: regex ... or JSON path ....
func (e Extract) how() string {
	if e.JSON != "" {
		return "JSON path " + e.JSON
	}
	return "regex " + e.Regex
}

// Metric is how the study declares e.
func (e Extract) Metric() workload.Metric {
	how := e.how()
	label := e.label
	if label == "" {
		label = e.Name
		if e.Unit != "" && !strings.Contains(label, e.Unit) {
			label += " " + e.Unit
		}
	}
	return workload.Metric{Name: e.Name, Unit: e.Unit, Label: label, HigherIsBetter: e.HigherIsBetter,
		Description: "from the program's output by " + how}
}

var nameRe = lazyre.New(`^[a-z][a-z0-9_]*$`)

// ParseExtract reads the command-line form NAME[:UNIT][:higher|:lower]=EXPR,
// EXPR a regular expression or json:PATH. A NAME such as events/s is its
// own unit and becomes the name events_per_s. Without :higher or :lower,
// time units (s, ms, us, ns) and names ending in one are lower-is-better,
// everything else higher-is-better.
func ParseExtract(s string) (Extract, error) {
	head, expr, ok := strings.Cut(s, "=")
	if !ok || head == "" || expr == "" {
		return Extract{}, fmt.Errorf("metric %q: want NAME[:UNIT][:higher|:lower]=REGEX or NAME=json:PATH, e.g. 'events/s=events per second:\\s*([0-9.]+)'", s)
	}
	e := Extract{}
	parts := strings.Split(head, ":")
	e.Name = parts[0]
	dir := ""
	for _, p := range parts[1:] {
		switch p {
		case "higher", "lower":
			dir = p
		default:
			if e.Unit != "" {
				return Extract{}, fmt.Errorf("metric %q: two units (%s, %s)", s, e.Unit, p)
			}
			e.Unit = p
		}
	}
	if strings.HasPrefix(expr, "json:") {
		e.JSON = strings.TrimPrefix(expr, "json:")
	} else {
		e.Regex = expr
	}
	return e.finish(dir)
}

// extractFrom reads one item of the metrics parameter: the command-line
// form as a string, or a mapping with name, unit, regex or json, and
// higher_is_better.
func extractFrom(v any) (Extract, error) {
	switch x := v.(type) {
	case string:
		return ParseExtract(x)
	case map[string]any:
		e := Extract{}
		dir := ""
		for k, val := range x {
			switch k {
			case "name", "unit", "regex", "json":
				s, ok := val.(string)
				if !ok {
					return Extract{}, fmt.Errorf("metric %v: %s must be a string", x["name"], k)
				}
				switch k {
				case "name":
					e.Name = s
				case "unit":
					e.Unit = s
				case "regex":
					e.Regex = s
				default:
					e.JSON = s
				}
			case "higher_is_better":
				b, ok := val.(bool)
				if !ok {
					return Extract{}, fmt.Errorf("metric %v: higher_is_better must be true or false", x["name"])
				}
				dir = map[bool]string{true: "higher", false: "lower"}[b]
			default:
				return Extract{}, fmt.Errorf("metric %v: unknown key %q; valid keys: name, unit, regex, json, higher_is_better", x["name"], k)
			}
		}
		if (e.Regex == "") == (e.JSON == "") {
			return Extract{}, fmt.Errorf("metric %q: give exactly one of regex and json", e.Name)
		}
		return e.finish(dir)
	default:
		return Extract{}, fmt.Errorf("metric %v: want NAME=REGEX or a mapping with name and regex or json", v)
	}
}

func (e Extract) finish(dir string) (Extract, error) {
	if !nameRe.Get().MatchString(e.Name) {
		raw := e.Name
		if e.Unit == "" {
			e.Unit = raw
		}
		n := strings.ToLower(raw)
		n = strings.ReplaceAll(n, "/", "_per_")
		n = strings.ReplaceAll(n, "%", "pct")
		n = regexp.MustCompile(`[^a-z0-9_]+`).ReplaceAllString(n, "_")
		n = strings.Trim(regexp.MustCompile(`_+`).ReplaceAllString(n, "_"), "_")
		if n == "" || !nameRe.Get().MatchString(n) {
			return Extract{}, fmt.Errorf("metric name %q: use letters, digits and _ (starting with a letter), e.g. events_per_s", raw)
		}
		e.Name, e.label = n, raw
	}
	if base[e.Name] {
		return Extract{}, fmt.Errorf("metric %s: boxtax measures %s itself; name yours differently", e.Name, e.Name)
	}
	switch dir {
	case "higher":
		e.HigherIsBetter = true
	case "lower":
		e.HigherIsBetter = false
	default:
		e.HigherIsBetter = !timeLike(e.Unit, e.Name)
	}
	if e.Regex != "" {
		re, err := regexp.Compile(e.Regex)
		if err != nil {
			return Extract{}, fmt.Errorf("metric %s: regex %q: %v", e.Name, e.Regex, err)
		}
		if re.NumSubexp() > 1 {
			return Extract{}, fmt.Errorf("metric %s: regex %q has %d groups; want at most one, around the number (use (?:...) for others)", e.Name, e.Regex, re.NumSubexp())
		}
		e.re = re
	} else {
		p, err := parsePath(e.JSON)
		if err != nil {
			return Extract{}, fmt.Errorf("metric %s: %w", e.Name, err)
		}
		e.path = p
	}
	return e, nil
}

// timeLike tells whether a unit or name is a duration, where lower is better.
func timeLike(unit, name string) bool {
	if strings.Contains(unit, "/") || strings.Contains(name, "_per_") {
		return false // a rate
	}
	switch strings.ToLower(unit) {
	case "s", "sec", "seconds", "ms", "us", "µs", "ns", "min":
		return true
	}
	for _, suf := range []string{"_s", "_ms", "_us", "_ns", "latency", "_time"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// parsePath reads .a.b[0].c (or a.b.0.c).
func parsePath(s string) ([]any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty JSON path; e.g. .jobs[0].read.iops")
	}
	var out []any
	rest := strings.TrimPrefix(s, ".")
	for rest != "" {
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("JSON path %q: unclosed [", s)
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("JSON path %q: [%s] is not an index", s, rest[1:end])
			}
			out = append(out, n)
			rest = strings.TrimPrefix(rest[end+1:], ".")
		default:
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			key := rest[:end]
			if n, err := strconv.Atoi(key); err == nil && n >= 0 {
				out = append(out, n)
			} else {
				out = append(out, key)
			}
			rest = strings.TrimPrefix(rest[end:], ".")
		}
	}
	return out, nil
}

// value reads e from the program's output: the last match of the regex in
// stdout, else in stderr; or the path in the JSON document stdout holds.
func (e Extract) value(stdout, stderr []byte) (float64, error) {
	if e.re != nil {
		for _, out := range [][]byte{stdout, stderr} {
			ms := e.re.FindAllSubmatch(out, -1)
			if len(ms) == 0 {
				continue
			}
			m := ms[len(ms)-1]
			raw := m[0]
			if len(m) > 1 {
				raw = m[1]
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
			if err != nil {
				return 0, fmt.Errorf("metric %s: regex %q matched %q, which is not a number", e.Name, e.Regex, raw)
			}
			return v, nil
		}
		return 0, fmt.Errorf("metric %s: regex %q matches nothing in the program's output (%d bytes on stdout, %d on stderr)", e.Name, e.Regex, len(stdout), len(stderr))
	}
	doc, err := jsonDoc(stdout)
	if err != nil {
		return 0, fmt.Errorf("metric %s: %w", e.Name, err)
	}
	return pathValue(doc, e.path, e.JSON)
}

// jsonDoc decodes the first JSON object or array on stdout that starts a
// line (tools such as fio may print a line or two before it).
func jsonDoc(stdout []byte) (any, error) {
	var firstErr error
	for off := 0; off < len(stdout); {
		line := stdout[off:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			start := off + len(line) - len(trimmed)
			dec := json.NewDecoder(bytes.NewReader(stdout[start:]))
			dec.UseNumber()
			var doc any
			err := dec.Decode(&doc)
			if err == nil {
				// The document must end its line: "[  5] 0.00-1.00 sec"
				// starts with an array but is text.
				rest := stdout[start+int(dec.InputOffset()):]
				if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
					rest = rest[:nl]
				}
				if len(bytes.TrimSpace(rest)) == 0 {
					return doc, nil
				}
				err = fmt.Errorf("text after the JSON on its line")
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		off += len(line)
	}
	if firstErr != nil {
		return nil, fmt.Errorf("the program's JSON output: %v", firstErr)
	}
	return nil, fmt.Errorf("the program printed no JSON on stdout (%d bytes)", len(stdout))
}

// pathValue follows path in doc to a number.
func pathValue(doc any, path []any, raw string) (float64, error) {
	cur := doc
	for i, step := range path {
		switch k := step.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return 0, fmt.Errorf("JSON path %s: %s is not an object", raw, pathString(path[:i]))
			}
			if cur, ok = m[k]; !ok {
				return 0, fmt.Errorf("JSON path %s: %s has no key %q", raw, pathString(path[:i]), k)
			}
		case int:
			a, ok := cur.([]any)
			if !ok {
				return 0, fmt.Errorf("JSON path %s: %s is not an array", raw, pathString(path[:i]))
			}
			if k >= len(a) {
				return 0, fmt.Errorf("JSON path %s: %s has %d elements, no [%d]", raw, pathString(path[:i]), len(a), k)
			}
			cur = a[k]
		}
	}
	switch v := cur.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) {
			return 0, fmt.Errorf("JSON path %s: %s is not a finite number", raw, v)
		}
		return f, nil
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f, nil
		}
	}
	return 0, fmt.Errorf("JSON path %s: %v is not a number", raw, cur)
}

func pathString(p []any) string {
	if len(p) == 0 {
		return "the document"
	}
	var b strings.Builder
	for _, s := range p {
		switch k := s.(type) {
		case string:
			b.WriteString("." + k)
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		}
	}
	return b.String()
}
