package study

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/result"
)

// Reps is the repetitions rule of a run (--reps): a count, "paper" (the
// published study's count) or "auto" (whole rounds until every overhead is
// known to PrecisionPct, at most Max rounds).
type Reps struct {
	N            int // a count; 0: the study's
	Paper        bool
	Auto         bool
	PrecisionPct float64 // --precision; 0: DefaultPrecisionPct
	Max          int     // --max-reps
	set          bool
}

// DefaultPrecisionPct is --precision's default.
const DefaultPrecisionPct = result.DefaultMarginPct

// String renders the rule as Set reads it; "" when none was given.
func (r *Reps) String() string {
	switch {
	case r == nil:
		return ""
	case r.Paper:
		return "paper"
	case r.Auto:
		return "auto"
	case r.N > 0:
		return strconv.Itoa(r.N)
	}
	return ""
}

// Set reads --reps.
func (r *Reps) Set(s string) error {
	r.set = true
	r.N, r.Paper, r.Auto = 0, false, false
	switch s = strings.TrimSpace(s); s {
	case "paper":
		r.Paper = true
	case "auto":
		r.Auto = true
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxAdaptiveRepetitions {
			return fmt.Errorf("want a whole number from 1 to %d, paper or auto, not %q", MaxAdaptiveRepetitions, s)
		}
		r.N = n
	}
	return nil
}

// check refuses --precision and --max-reps without --reps auto, and a
// maximum out of range.
func (r *Reps) check(given map[string]bool) error {
	adaptive := r.Auto || given["budget"]
	if given["budget"] && (r.N > 0 || r.Paper) {
		return fmt.Errorf("--budget adds rounds until every cell is decided: give --reps auto or no --reps, not --reps %s", r.String())
	}
	if !adaptive && (given["precision"] || given["max-reps"]) {
		return fmt.Errorf("--precision and --max-reps go with --reps auto or --budget")
	}
	if adaptive && (r.Max < MinAdaptiveRepetitions || r.Max > MaxAdaptiveRepetitions) {
		return fmt.Errorf("--max-reps must be %d to %d, not %d", MinAdaptiveRepetitions, MaxAdaptiveRepetitions, r.Max)
	}
	return nil
}

// apply sets the spec's repetitions for paper and auto, and a budget
// given on the command line, which makes the study adaptive (a count is
// an ordinary override, Overrides.Repetitions, and ends the spec's own
// budget).
func (r Reps) apply(spec *Spec, budget Budget) error {
	switch {
	case r.Paper:
		spec.Budget = 0 // the paper's count, not rounds until decided
		return spec.UsePaperRepetitions()
	case r.Auto || budget > 0:
		if budget > 0 {
			spec.Budget = budget
		}
		p := r.PrecisionPct
		if p == 0 {
			p = DefaultPrecisionPct
		}
		spec.UseAdaptive(Adaptive{PrecisionPct: p, MaxRepetitions: r.Max})
	}
	return nil
}

// Set reads --budget.
func (b *Budget) Set(s string) error {
	d, err := ParseBudget(s)
	if err != nil {
		return err
	}
	*b = d
	return nil
}

// Percent is a flag.Value for a percentage above 0 and at most 100,
// written with or without the % sign, like 2%: --precision, of run and of
// report.
type Percent float64

// String is the percentage with its % sign; "" when unset.
func (p *Percent) String() string {
	if p == nil || *p == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(*p), 'g', -1, 64) + "%"
}

// Set reads a percentage.
func (p *Percent) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v > 0 && v <= 100) {
		return fmt.Errorf("want a percentage above 0 and at most 100, like 2%%, not %q", s)
	}
	*p = Percent(v)
	return nil
}
