package workload

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Params are a workload's parameters by name. Values come from YAML or JSON,
// so numbers may be int or float64 and sizes or durations may be strings
// ("64MiB", "5s"); the accessors convert and report bad values as errors.
type Params map[string]any

// Check merges p over the workload's defaults and rejects unknown names.
func Check(info Info, p Params) (Params, error) {
	out := Params{}
	known := map[string]bool{}
	for _, d := range info.Params {
		known[d.Name] = true
		out[d.Name] = d.Default
	}
	var unknown []string
	for k, v := range p {
		if !known[k] {
			unknown = append(unknown, k)
			continue
		}
		out[k] = v
	}
	for _, d := range info.Params {
		if _, given := p[d.Name]; d.Required && !given {
			return nil, fmt.Errorf("workload %s: parameter %s is required: %s", info.Name, d.Name, d.Description)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		var valid []string
		for _, d := range info.Params {
			valid = append(valid, d.Name)
		}
		return nil, fmt.Errorf("workload %s: unknown parameter(s) %s; valid parameters: %s",
			info.Name, strings.Join(unknown, ", "), strings.Join(valid, ", "))
	}
	return out, nil
}

// Int reads an integer parameter.
func (p Params) Int(name string) (int, error) {
	switch v := p[name].(type) {
	case int:
		return v, nil
	case int64:
		return int(v), nil
	case uint64:
		return int(v), nil
	case float64:
		if v != math.Trunc(v) {
			return 0, fmt.Errorf("parameter %s: %v is not a whole number", name, v)
		}
		return int(v), nil
	case json.Number:
		n, err := v.Int64()
		return int(n), err
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("parameter %s: %q is not a whole number", name, v)
		}
		return n, nil
	case nil:
		return 0, fmt.Errorf("parameter %s is missing", name)
	default:
		return 0, fmt.Errorf("parameter %s: %v (%T) is not a whole number", name, v, v)
	}
}

// Float reads a floating-point parameter.
func (p Params) Float(name string) (float64, error) {
	switch v := p[name].(type) {
	case int:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, fmt.Errorf("parameter %s: %q is not a number", name, v)
		}
		return f, nil
	default:
		return 0, fmt.Errorf("parameter %s: %v (%T) is not a number", name, v, v)
	}
}

// String reads a string parameter.
func (p Params) String(name string) (string, error) {
	switch v := p[name].(type) {
	case string:
		return v, nil
	case nil:
		return "", fmt.Errorf("parameter %s is missing", name)
	default:
		return fmt.Sprint(v), nil
	}
}

// Bool reads a boolean parameter.
func (p Params) Bool(name string) (bool, error) {
	switch v := p[name].(type) {
	case bool:
		return v, nil
	case string:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, fmt.Errorf("parameter %s: %q is not true or false", name, v)
		}
		return b, nil
	default:
		return false, fmt.Errorf("parameter %s: %v (%T) is not true or false", name, v, v)
	}
}

// Duration reads a duration parameter: a Go duration string ("5s", "250ms")
// or a number of seconds.
func (p Params) Duration(name string) (time.Duration, error) {
	return withUnit(p, name, "a duration",
		func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) },
		func(s string) (time.Duration, error) {
			d, err := time.ParseDuration(strings.TrimSpace(s))
			if err != nil {
				return 0, fmt.Errorf("%q is not a duration like 5s or 250ms", s)
			}
			return d, nil
		})
}

// Bytes reads a size parameter: a number of bytes or a string with a unit
// ("64MiB", "1GB", "4k"). Binary (KiB, MiB, GiB, k, m, g) and decimal (KB, MB, GB) units.
func (p Params) Bytes(name string) (int64, error) {
	return withUnit(p, name, "a size", func(bytes float64) int64 { return int64(bytes) }, ParseBytes)
}

// withUnit reads a parameter given as a plain number in the base unit,
// which fromNumber converts, or as a string with a unit, which parse reads
// (its error is reported under the parameter's name). Any other value is
// not a kind, e.g. "a size".
func withUnit[T any](p Params, name, kind string, fromNumber func(float64) T, parse func(string) (T, error)) (T, error) {
	var zero T
	switch v := p[name].(type) {
	case int, int64, float64:
		f, _ := p.Float(name)
		return fromNumber(f), nil
	case string:
		x, err := parse(v)
		if err != nil {
			return zero, fmt.Errorf("parameter %s: %w", name, err)
		}
		return x, nil
	default:
		return zero, fmt.Errorf("parameter %s: %v (%T) is not %s", name, v, v, kind)
	}
}

// ParseBytes parses a size such as "64MiB", "1GB", "4k" or "4096".
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size like 4096, 64MiB or 1GB", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1, "B": 1,
		"k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "KB": 1e3, "kB": 1e3,
		"m": 1 << 20, "M": 1 << 20, "MiB": 1 << 20, "MB": 1e6,
		"g": 1 << 30, "G": 1 << 30, "GiB": 1 << 30, "GB": 1e9,
		"TiB": 1 << 40, "TB": 1e12,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q has an unknown unit %q; use B, KiB, MiB, GiB, KB, MB or GB", s, unit)
	}
	return int64(f * mult), nil
}
