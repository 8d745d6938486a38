package fleet

import (
	"encoding/json"
	"sort"
	"strings"
)

// redacted stands for a value boxtax does not print.
const redacted = "<redacted>"

// RedactExtraVars returns ansible-playbook arguments fit to print: the value
// of every extra variable (-e, --extra-vars, in any of their spellings:
// "-e k=v", "-ek=v", "--extra-vars=k=v", "-ve k=v") is replaced, since
// passwords and tokens are passed so. Variable names stay, as do files
// (-e @vars.yml), so the line still says what was given.
func RedactExtraVars(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a == "--extra-vars" || a == "-e":
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, redactVars(args[i]))
			}
		case strings.HasPrefix(a, "--extra-vars="):
			out = append(out, "--extra-vars="+redactVars(strings.TrimPrefix(a, "--extra-vars=")))
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// A cluster of short options: flags without a value, then
			// perhaps one that takes the rest or the next argument.
			j := 1
			for j < len(a) && strings.IndexByte("vbkKCDJh", a[j]) >= 0 {
				j++
			}
			if j == len(a) || a[j] != 'e' {
				out = append(out, a)
				continue
			}
			if j+1 < len(a) {
				out = append(out, a[:j+1]+redactVars(a[j+1:]))
				continue
			}
			out = append(out, a)
			if i+1 < len(args) {
				i++
				out = append(out, redactVars(args[i]))
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// redactVars hides the values of one extra-vars argument: key=value pairs
// keep their keys, a JSON object its keys, a file (@FILE) its name, and
// anything else is replaced whole.
func redactVars(v string) string {
	if strings.HasPrefix(v, "@") {
		return v
	}
	var obj map[string]any
	if json.Unmarshal([]byte(v), &obj) == nil {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			b, _ := json.Marshal(k)
			keys[i] = string(b) + `:"` + redacted + `"`
		}
		return "{" + strings.Join(keys, ",") + "}"
	}
	fields := strings.Fields(v)
	if len(fields) == 0 || strings.ContainsAny(v, "'\"{[") {
		return redacted
	}
	for i, f := range fields {
		k, _, ok := strings.Cut(f, "=")
		if !ok {
			return redacted
		}
		fields[i] = k + "=" + redacted
	}
	return strings.Join(fields, " ")
}
