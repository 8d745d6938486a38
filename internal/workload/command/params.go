package command

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// argvVar declares a command parameter: a command line or a list of words.
func argvVar(d *workload.Decl, dst *[]string, name, desc string) {
	workload.Var(d, dst, name, "", desc, argvParam)
}

// listVar declares a list parameter.
func listVar(d *workload.Decl, dst *[]any, name, desc string) {
	workload.Var(d, dst, name, []any{}, desc, listParam)
}

// stringsVar declares a list-of-strings parameter.
func stringsVar(d *workload.Decl, dst *[]string, name, desc string) {
	workload.Var(d, dst, name, []any{}, desc, stringsParam)
}

// varsVar declares a mapping of names to values (the vars parameter).
func varsVar(d *workload.Decl, dst *map[string]string, name, desc string) {
	workload.Var(d, dst, name, map[string]any{}, desc, mapParam)
}

// mapParam reads the mapping parameter name: names to values, numbers
// written as they were given.
func mapParam(p workload.Params, name string) (map[string]string, error) {
	out := map[string]string{}
	switch v := p[name].(type) {
	case nil:
	case map[string]any:
		for k, val := range v {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return nil, fmt.Errorf("parameter %s: %q is not a variable name", name, k)
			}
			switch x := val.(type) {
			case float64: // JSON numbers, on the way to the worker
				out[k] = strconv.FormatFloat(x, 'f', -1, 64)
			default:
				out[k] = fmt.Sprint(val)
			}
		}
	case map[string]string:
		for k, val := range v {
			out[k] = val
		}
	default:
		return nil, fmt.Errorf("parameter %s: want a mapping of names to values, not %T", name, v)
	}
	return out, nil
}

// argvParam reads a command: a string (split) or a list of strings.
func argvParam(p workload.Params, name string) ([]string, error) {
	switch v := p[name].(type) {
	case nil:
		return nil, nil
	case string:
		return Split(v)
	case []string:
		return v, nil
	case []any:
		return words(name, v)
	default:
		return nil, fmt.Errorf("parameter %s: want a command line or a list of words, not %T", name, v)
	}
}

// listParam reads a list: a list of anything, or one string.
func listParam(p workload.Params, name string) ([]any, error) {
	switch v := p[name].(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out, nil
	case string:
		if v == "" {
			return nil, nil
		}
		return []any{v}, nil
	default:
		return nil, fmt.Errorf("parameter %s: want a list, not %T", name, v)
	}
}

// stringsParam reads a list of strings.
func stringsParam(p workload.Params, name string) ([]string, error) {
	l, err := listParam(p, name)
	if err != nil {
		return nil, err
	}
	return words(name, l)
}

// words are the items of the list parameter name, each of which must be a
// string.
func words(name string, l []any) ([]string, error) {
	out := make([]string, len(l))
	for i, a := range l {
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("parameter %s: item %d (%v) is not a string", name, i, a)
		}
		out[i] = s
	}
	return out, nil
}
