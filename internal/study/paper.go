package study

import (
	"fmt"
	"regexp"
)

// MaxPaperRepetitions bounds paper.repetitions: no seed repeated more.
const MaxPaperRepetitions = 1000

var paperID = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// validatePaper checks the paper: block. Whether the id names transcribed
// published values is the caller's to check (report.PaperIDs), as the
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
