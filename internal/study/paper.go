package study

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxPaperRepetitions bounds paper.repetitions: no seed repeated more.
const MaxPaperRepetitions = 1000

var paperID = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// validatePaper checks the paper: block. Whether the id names transcribed
// published values is the caller's to check (papers.IDs), as the
// study package does not know the report's papers.
func (s *Spec) validatePaper(bad func(Pos, string, ...any)) {
	p := s.Paper
	if p == nil {
		return
	}
	if p.ID != "" && !paperID.MatchString(p.ID) {
		bad(p.Pos, "paper id %q: write it in lower case letters, digits, - and _, like krylovskiy2015", p.ID)
	}
	if p.Repetitions < 1 || p.Repetitions > MaxPaperRepetitions {
		bad(p.Pos, "paper repetitions must be the paper's repetition count, 1 to %d, not %d", MaxPaperRepetitions, p.Repetitions)
	}
	seen := map[string]bool{}
	for _, d := range p.Deviations {
		key := d.Workload + " " + d.Param
		switch {
		case d.Param == "":
			bad(d.Pos, "paper deviation: name the param that differs from the paper (repetitions, tool, or a workload parameter)")
		case strings.TrimSpace(d.Reason) == "":
			bad(d.Pos, "paper deviation %s: say why it differs from the paper (reason: ...)", strings.TrimSpace(key))
		case seen[key]:
			bad(d.Pos, "paper deviation %s is stated twice: state it once", strings.TrimSpace(key))
		case d.Workload != "" && !s.runs(d.Workload):
			bad(d.Pos, "paper deviation names workload %q, which this study does not run", d.Workload)
		}
		seen[key] = true
	}
}

// Deviation is one place where a study departs from its paper's method:
// a workload parameter (param of workload), the repetitions, or the tool
// (param: tool, a workload standing in for the paper's program), and why.
type Deviation struct {
	Workload string `yaml:"workload,omitempty"` // "" for the study's own settings (repetitions)
	Param    string `yaml:"param"`
	Reason   string `yaml:"reason"`
	Pos      Pos    `yaml:"-"`
}

// UnmarshalYAML records where the deviation was written.
func (d *Deviation) UnmarshalYAML(v *yaml.Node) error {
	type plain Deviation
	return decodeStrictAt(v, (*plain)(d), &d.Pos)
}

// runs says whether the study runs the workload, measured or in the
// background.
func (s *Spec) runs(workload string) bool {
	for _, w := range s.Workloads {
		if w.Name == workload {
			return true
		}
	}
	for _, f := range s.Factors {
		for _, b := range f.Background {
			if b != nil && b.Workload == workload {
				return true
			}
		}
	}
	return false
}

// Deviation returns the deviation the paper block states for a parameter
// of workload ("" for the study's own), if any.
func (s *Spec) Deviation(workload, param string) (Deviation, bool) {
	if s.Paper != nil {
		for _, d := range s.Paper.Deviations {
			if d.Workload == workload && d.Param == param {
				return d, true
			}
		}
	}
	return Deviation{}, false
}

// PaperRepetitions is the published study's repetition count, or 0 when the
// spec names no paper.
func (s *Spec) PaperRepetitions() int {
	if s.Paper == nil {
		return 0
	}
	return s.Paper.Repetitions
}

// UsePaperRepetitions sets the repetitions to the paper's count (--reps
// paper); an error when the spec names no paper.
func (s *Spec) UsePaperRepetitions() error {
	if s.Paper == nil || s.Paper.Repetitions < 1 {
		return fmt.Errorf("--reps paper: study %q names no paper repetition count (add paper: {repetitions: N} to the spec, or give --reps N)", s.Name)
	}
	s.Repetitions = s.Paper.Repetitions
	return nil
}
