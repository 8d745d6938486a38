package study

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// value is the parameter value of level lv: its entry under values, else
// the level itself.
func (f Factor) value(lv any) any {
	if v, ok := f.Values[fmt.Sprint(lv)]; ok {
		return v
	}
	return lv
}

// validateValues refuses values for levels the factor does not have.
func (f Factor) validateValues(bad func(Pos, string, ...any)) {
	if len(f.Values) == 0 {
		return
	}
	if !f.setsParam() {
		bad(f.Pos, "factor %q sets no parameter: values mean nothing here", f.Name)
		return
	}
	levels := map[string]bool{}
	for _, lv := range f.Levels {
		levels[fmt.Sprint(lv)] = true
	}
	for _, k := range slices.Sorted(maps.Keys(f.Values)) {
		if !levels[k] {
			bad(f.Pos, "factor %q: values names %q, which is not one of its levels", f.Name, k)
		}
	}
}

// setParam sets parameter name of params to v; a name with a dot
// (placeholders.threads) sets one key of a mapping parameter, keeping
// its other keys (params' own mapping is not changed: it is copied).
func setParam(params workload.Params, name string, v any) {
	head, key, dotted := strings.Cut(name, ".")
	if !dotted {
		params[name] = v
		return
	}
	m := map[string]any{}
	switch old := params[head].(type) {
	case map[string]any:
		maps.Copy(m, old)
	case map[string]string:
		for k, s := range old {
			m[k] = s
		}
	}
	m[key] = v
	params[head] = m
}

// hasParam tells whether params give name (a dotted name: the key of
// the mapping).
func hasParam(params workload.Params, name string) bool {
	head, key, dotted := strings.Cut(name, ".")
	if !dotted {
		_, ok := params[name]
		return ok
	}
	switch m := params[head].(type) {
	case map[string]any:
		_, ok := m[key]
		return ok
	case map[string]string:
		_, ok := m[key]
		return ok
	}
	return false
}
