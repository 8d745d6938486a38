package workload

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Declarer is a workload's config: Declare binds each parameter to the
// field it sets, once, with its default and description, as a
// flag.FlagSet binds flags. The one declaration lists the parameters
// (Declared, for Info and `boxtax list workloads`) and parses them (Parse).
type Declarer interface {
	Declare(d *Decl)
}

// Checker is implemented by configs that check their values once parsed
// (two parameters that exclude each other); a value's bounds are declared
// with it (Positive, Min, Range).
type Checker interface {
	Check() error
}

// Decl is what a Declarer declares its parameters to. While describing it
// only lists them; while parsing it also sets each bound field from the
// parameters (the default where one is not given) and collects every error.
type Decl struct {
	params Params // nil: describing only
	list   []Param
	errs   []error
	last   any // the value of the parameter declared last, nil when it could not be read
}

// Declared lists the parameters c declares, with their defaults, for Info.
func Declared(c Declarer) []Param {
	d := &Decl{}
	c.Declare(d)
	return d.list
}

// Parse sets c's fields from p (a parameter p does not give takes its
// default) and then, when c is a Checker, checks the values. Every
// parameter that cannot be read is reported, not only the first.
func Parse[C Declarer](p Params, c C) (C, error) {
	if p == nil {
		p = Params{}
	}
	d := &Decl{params: p}
	c.Declare(d)
	if err := errors.Join(d.errs...); err != nil {
		return c, err
	}
	if ch, ok := any(c).(Checker); ok {
		if err := ch.Check(); err != nil {
			return c, err
		}
	}
	return c, nil
}

// value declares a parameter whose listed default is shown and, when
// parsing, returns its value and true (the shown default when p does not
// give it).
func (d *Decl) value(name string, shown any, desc string) (Params, bool) {
	d.list = append(d.list, Param{Name: name, Default: shown, Description: desc})
	if d.params == nil {
		return nil, false
	}
	if _, given := d.params[name]; given {
		return d.params, true
	}
	return Params{name: shown}, true
}

// Var declares a parameter that get reads from the parameters into dst,
// with its default listed as shown: the one declaration behind Int, String
// and the others, and for a parameter of a form of its own (a command
// line, a list, a mapping). get's error is reported as is, so it should
// name the parameter.
func Var[T any](d *Decl, dst *T, name string, shown any, desc string, get func(p Params, name string) (T, error)) {
	d.last = nil
	if p, ok := d.value(name, shown, desc); ok {
		v, err := get(p, name)
		set(d, dst, v, err)
		if err == nil {
			d.last = v
		}
	}
}

// set stores v in dst, or collects err.
func set[T any](d *Decl, dst *T, v T, err error) {
	if err != nil {
		d.errs = append(d.errs, err)
		return
	}
	*dst = v
}

// Int declares a whole-number parameter.
func (d *Decl) Int(dst *int, name string, def int, desc string) {
	Var(d, dst, name, def, desc, Params.Int)
}

// Float declares a number parameter.
func (d *Decl) Float(dst *float64, name string, def float64, desc string) {
	Var(d, dst, name, shownNumber(def), desc, Params.Float)
}

// String declares a string parameter.
func (d *Decl) String(dst *string, name, def, desc string) {
	Var(d, dst, name, def, desc, Params.String)
}

// Bool declares a true-or-false parameter.
func (d *Decl) Bool(dst *bool, name string, def bool, desc string) {
	Var(d, dst, name, def, desc, Params.Bool)
}

// Duration declares a duration parameter ("5s", or a number of seconds);
// its default is listed as a duration string such as "3s" or "10m".
func (d *Decl) Duration(dst *time.Duration, name string, def time.Duration, desc string) {
	Var(d, dst, name, FormatDuration(def), desc, Params.Duration)
}

// Bytes declares a size parameter (a number of bytes, or "64MiB", "50MB");
// its default is listed with the largest unit that divides it, e.g. "64MiB".
func (d *Decl) Bytes(dst *int64, name string, def int64, desc string) {
	Var(d, dst, name, FormatBytes(def), desc, Params.Bytes)
}

// ByteCount declares a small size parameter (a payload) listed as a plain
// number of bytes, 36 rather than "36"; it takes a unit too ("1KiB").
func (d *Decl) ByteCount(dst *int, name string, def int, desc string) {
	Var(d, dst, name, def, desc, func(p Params, name string) (int, error) {
		v, err := p.Bytes(name)
		if err == nil && v != int64(int(v)) {
			err = tooLarge(name, strconv.FormatInt(v, 10))
		}
		return int(v), err
	})
}

// BitRate declares a rate in bits per second ("90mbit", "1.5G"); its
// default is listed as written.
func (d *Decl) BitRate(dst *float64, name, def, desc string) {
	Var(d, dst, name, def, desc, Params.BitRate)
}

// Required marks the parameter declared last as one a study must give (it
// has no useful default: the command to run).
func (d *Decl) Required() {
	last := &d.list[len(d.list)-1]
	last.Required = true
	if d.params == nil {
		return
	}
	if _, given := d.params[last.Name]; !given {
		d.errs = append(d.errs, fmt.Errorf("parameter %s is required: %s", last.Name, last.Description))
	}
}

// Positive bounds the number declared last above 0: "parameter
// duration: 0s must be positive, e.g. 5s" (its default).
func (d *Decl) Positive() {
	if v, ok := d.number(); ok && v <= 0 {
		last := d.list[len(d.list)-1]
		d.errs = append(d.errs, fmt.Errorf("parameter %s: %v must be positive, e.g. %v", last.Name, d.last, last.Default))
	}
}

// Min bounds the number declared last below: "parameter threads: 0 must
// be 1 or more"; means says what min means when it is special
// ("parameter events: -1 must be 0 (run for duration) or more").
func (d *Decl) Min(min float64, means ...string) {
	if v, ok := d.number(); ok && v < min {
		d.errs = append(d.errs, fmt.Errorf("parameter %s: %v must be %s or more", d.list[len(d.list)-1].Name, d.last, bound(min, means)))
	}
}

// Range bounds the number declared last to lo..hi: "parameter clients:
// 0 must be 1 to 5000"; means says what lo means when it is special
// ("parameter threads: 300 must be 0 (one per CPU) to 256").
func (d *Decl) Range(lo, hi float64, means ...string) {
	if v, ok := d.number(); ok && (v < lo || v > hi) {
		d.errs = append(d.errs, fmt.Errorf("parameter %s: %v must be %s to %s", d.list[len(d.list)-1].Name, d.last, bound(lo, means), strconv.FormatFloat(hi, 'f', -1, 64)))
	}
}

// OneOf bounds the string declared last to values: "parameter protocol:
// "sctp" is not tcp or udp".
func (d *Decl) OneOf(values ...string) {
	if v, ok := d.last.(string); ok && !slices.Contains(values, v) {
		d.errs = append(d.errs, fmt.Errorf("parameter %s: %q is not %s or %s", d.list[len(d.list)-1].Name, v, strings.Join(values[:len(values)-1], ", "), values[len(values)-1]))
	}
}

// number is the value declared last as a number (a count, a size, a
// duration in nanoseconds), when parsing read one.
func (d *Decl) number() (float64, bool) {
	switch v := reflect.ValueOf(d.last); {
	case v.CanInt():
		return float64(v.Int()), true
	case v.CanFloat():
		return v.Float(), true
	}
	return 0, false
}

// bound writes a bound, with what it means when it is special.
func bound(v float64, means []string) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if len(means) > 0 {
		s += " (" + strings.Join(means, ", ") + ")"
	}
	return s
}

// shownNumber lists a whole float default as an int (80, not 80.0), as
// the parameters were listed before they were declared.
func shownNumber(f float64) any {
	if f == float64(int(f)) {
		return int(f)
	}
	return f
}

// FormatDuration is d as a duration parameter is written: "3s", "250ms",
// whole seconds below two minutes as people write them ("60s", "90s"),
// and "10m" rather than time.Duration's "10m0s".
func FormatDuration(d time.Duration) string {
	if d > 0 && d < 2*time.Minute && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// FormatBytes is n as a size parameter is written: with the largest
// binary unit that divides it ("64MiB"), else the largest decimal one
// ("50MB"), else a plain number; 0 is "0".
func FormatBytes(n int64) string {
	if n == 0 {
		return "0"
	}
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
