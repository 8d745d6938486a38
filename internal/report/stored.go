package report

import (
	"context"
	"strings"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// FromStudy computes the report of a stored study, with the overheads'
// intervals paired by round when paired is set (report --paired).
func FromStudy(s *study.Stored, paired bool) *Report {
	lay := layoutOf(s)
	lay.Paired = paired
	return Build(s.Study, lay, s.Runs, s.Samples)
}

// layoutOf reads the baseline and the order of environments and workloads
// from the study's spec; nothing when the spec cannot be read.
func layoutOf(s *study.Stored) Layout {
	spec := s.Spec
	if spec == nil {
		return Layout{}
	}
	rl := spec.Layout()
	lay := Layout{Baseline: rl.Baseline, Envs: rl.Envs, Workloads: rl.Workloads, Earlier: s.Earlier}
	lay.Repetitions.Spec = spec.Repetitions
	if spec.Paper != nil {
		lay.Repetitions.Paper, lay.Repetitions.PaperID = spec.Paper.Repetitions, spec.Paper.ID
	}
	if a := spec.Adaptive; a != nil {
		lay.Repetitions.PrecisionPct, lay.Repetitions.MaxRounds = a.PrecisionPct, a.MaxRepetitions
	}
	return lay
}

// LoadSeries gives the report the long per-iteration records of the
// study's measured runs, whose distributions the plots show. The host
// monitors' records (mon.*) are not plotted and not read.
func (r *Report) LoadSeries(ctx context.Context, s *study.Stored) error {
	if s.Store == nil { // a study not read from a database has no series
		return nil
	}
	for _, run := range s.Runs {
		if run.Warmup || run.Status != store.RunOK {
			continue
		}
		names, err := s.Store.SeriesNames(ctx, run.ID)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n.Name] || strings.HasPrefix(n.Name, "mon.") {
				continue
			}
			seen[n.Name] = true
			series, err := s.Store.ReadSeries(ctx, run.ID, n.Name)
			if err != nil {
				return err
			}
			r.AddSeries(series)
		}
	}
	return nil
}
