package workload

import (
	"encoding/json"
	"errors"
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

// MaxWhole is the largest whole-number parameter: a worker reads its
// parameters from JSON, as float64, which holds every whole number up to
// 2^53 exactly and none much beyond, so a larger one would reach the
// workload as another number (9223372036854775807 came out negative).
const MaxWhole = 1 << 53

// Int reads an integer parameter, refusing one beyond ±MaxWhole (or beyond
// an int where int has 32 bits) rather than letting it wrap.
func (p Params) Int(name string) (int, error) {
	var n int64
	switch v := p[name].(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	case uint64:
		if v > MaxWhole {
			return 0, tooLarge(name, fmt.Sprint(v))
		}
		n = int64(v)
	case float64:
		if v != math.Trunc(v) {
			return 0, fmt.Errorf("parameter %s: %v is not a whole number", name, v)
		}
		if math.Abs(v) > MaxWhole {
			return 0, tooLarge(name, strconv.FormatFloat(v, 'g', -1, 64))
		}
		n = int64(v)
	case json.Number:
		return Params{name: string(v)}.Int(name)
	case string:
		s := strings.TrimSpace(v)
		x, err := strconv.ParseInt(s, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, tooLarge(name, s)
		}
		if err != nil {
			return 0, fmt.Errorf("parameter %s: %q is not a whole number", name, v)
		}
		n = x
	case nil:
		return 0, fmt.Errorf("parameter %s is missing", name)
	default:
		return 0, fmt.Errorf("parameter %s: %v (%T) is not a whole number", name, v, v)
	}
	if n > MaxWhole || n < -MaxWhole || n != int64(int(n)) {
		return 0, tooLarge(name, strconv.FormatInt(n, 10))
	}
	return int(n), nil
}

// tooLarge is the error for a whole number beyond what a parameter holds.
func tooLarge(name, v string) error {
	limit := int64(MaxWhole)
	if strconv.IntSize == 32 {
		limit = math.MaxInt32
	}
	return fmt.Errorf("parameter %s: %s is out of range; whole-number parameters go from -%d to %d", name, v, limit, limit)
}

// Float reads a floating-point parameter.
func (p Params) Float(name string) (float64, error) {
	switch v := p[name].(type) {
	case int:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case uint64:
		return float64(v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("parameter %s: %v is not a finite number", name, v)
		}
		return v, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("parameter %s: %q is not a finite number", name, v)
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
		func(s float64) (time.Duration, error) {
			if math.Abs(s) >= math.MaxInt64/float64(time.Second) {
				return 0, fmt.Errorf("%v seconds is out of range (about 292 years at most)", s)
			}
			return time.Duration(s * float64(time.Second)), nil
		},
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
	return withUnit(p, name, "a size", sizeOf, ParseBytes)
}

// sizeOf is a number of bytes as an int64, refused beyond MaxWhole (8 PiB),
// which a parameter keeps exactly on its way to the worker.
func sizeOf(bytes float64) (int64, error) {
	if math.Abs(bytes) > MaxWhole {
		return 0, fmt.Errorf("%s bytes is out of range; sizes go up to %d (8PiB)", strconv.FormatFloat(bytes, 'g', -1, 64), int64(MaxWhole))
	}
	return int64(bytes), nil
}

// withUnit reads a parameter given as a plain number in the base unit,
// which fromNumber converts, or as a string with a unit, which parse reads
// (its error is reported under the parameter's name). Any other value is
// not a kind, e.g. "a size".
func withUnit[T any](p Params, name, kind string, fromNumber func(float64) (T, error), parse func(string) (T, error)) (T, error) {
	var zero T
	switch v := p[name].(type) {
	case int, int64, uint64, float64:
		f, err := p.Float(name)
		if err != nil {
			return zero, err
		}
		x, err := fromNumber(f)
		if err != nil {
			return zero, fmt.Errorf("parameter %s: %w", name, err)
		}
		return x, nil
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
	return sizeOf(f * mult)
}
