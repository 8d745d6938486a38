package cli

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/study"
)

// repsValue is --reps: a count, "paper" (the published study's count) or
// "auto" (rounds until --precision is reached, at most --max-reps).
type repsValue struct {
	N            int // a count; 0: the study's
	Paper        bool
	Auto         bool
	PrecisionPct float64 // --precision; 0: DefaultPrecisionPct
	Max          int     // --max-reps
	set          bool
}

// DefaultPrecisionPct is --precision's default.
const DefaultPrecisionPct = 2.0

func (r *repsValue) String() string {
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

func (r *repsValue) Set(s string) error {
	r.set = true
	r.N, r.Paper, r.Auto = 0, false, false
	switch s = strings.TrimSpace(s); s {
	case "paper":
		r.Paper = true
	case "auto":
		r.Auto = true
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > study.MaxAdaptiveRepetitions {
			return fmt.Errorf("want a whole number from 1 to %d, paper or auto, not %q", study.MaxAdaptiveRepetitions, s)
		}
		r.N = n
	}
	return nil
}

// check refuses --precision and --max-reps without --reps auto.
func (r *repsValue) check(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !r.Auto && (given["precision"] || given["max-reps"]) {
		return usagef("--precision and --max-reps go with --reps auto")
	}
	if r.Auto && (r.Max < study.MinAdaptiveRepetitions || r.Max > study.MaxAdaptiveRepetitions) {
		return usagef("--max-reps must be %d to %d, not %d", study.MinAdaptiveRepetitions, study.MaxAdaptiveRepetitions, r.Max)
	}
	return nil
}

// apply sets the spec's repetitions for paper and auto (a count is an
// ordinary override).
func (r *repsValue) apply(spec *study.Spec) error {
	switch {
	case r.Paper:
		return spec.UsePaperRepetitions()
	case r.Auto:
		p := r.PrecisionPct
		if p == 0 {
			p = DefaultPrecisionPct
		}
		spec.Adaptive = &study.Adaptive{PrecisionPct: p, MaxRepetitions: r.Max}
		if spec.Repetitions > r.Max {
			spec.Repetitions = r.Max
		}
	}
	return nil
}

// precisionFlag is --precision: a percentage, with or without the % sign.
type precisionFlag struct{ dst *float64 }

func (p precisionFlag) String() string {
	if p.dst == nil || *p.dst == 0 {
		return ""
	}
	return strconv.FormatFloat(*p.dst, 'g', -1, 64) + "%"
}

func (p precisionFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v > 0 && v <= 100) {
		return fmt.Errorf("want a percentage above 0 and at most 100, like 2%%, not %q", s)
	}
	*p.dst = v
	return nil
}

// checkPaperID refuses a spec whose paper id names no transcribed paper.
func checkPaperID(spec *study.Spec) error {
	if spec.Paper == nil || spec.Paper.ID == "" {
		return nil
	}
	if slices.Contains(papers.IDs(), spec.Paper.ID) {
		return nil
	}
	return fmt.Errorf("%s: paper id %q has no published values; valid papers: %s", spec.File(), spec.Paper.ID, strings.Join(papers.IDs(), ", "))
}

// repetitionsLine says how the study's repetitions compare with the paper's.
func repetitionsLine(spec *study.Spec) string {
	var parts []string
	if spec.Paper != nil && spec.Paper.Repetitions > 0 {
		parts = append(parts, fmt.Sprintf("repetitions: %d here, %d in the paper (%s)", spec.Repetitions, spec.Paper.Repetitions, orDash(spec.Paper.ID)))
		if spec.Repetitions < spec.Paper.Repetitions && spec.Adaptive == nil {
			parts = append(parts, "--reps paper runs the paper's count")
		}
	}
	if a := spec.Adaptive; a != nil {
		parts = append(parts, fmt.Sprintf("adaptive: rounds are added until every overhead's 95%% interval is within ±%g%%, at most %d rounds", a.PrecisionPct, a.MaxRepetitions))
	}
	return strings.Join(parts, "; ")
}

func orDash(s string) string {
	if s == "" {
		return "no published values"
	}
	return s
}
