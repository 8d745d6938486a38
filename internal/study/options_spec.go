package study

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// spec reads the study the options name (or builds the --cmd one), applies
// the options to it and checks it against this boxtax and this host;
// paperIDs, when not nil, are the papers a spec may name.
func (o Options) spec(ctx context.Context, paperIDs []string) (*Spec, error) {
	var spec *Spec
	var err error
	if o.Command.Used() {
		spec, err = o.Command.Spec()
	} else {
		spec, err = Load(ctx, o.Study)
	}
	if err != nil {
		return nil, err
	}
	if err := spec.ResolveImages(ctx, env.Options{}); err != nil {
		return nil, err
	}
	Overrides{Envs: o.Envs, Workloads: o.Workloads, Repetitions: o.Reps.N, Warmup: o.Warmup, Seed: o.Seed}.Apply(spec)
	if err := o.Reps.apply(spec, o.Budget); err != nil {
		return nil, err
	}
	if err := spec.SetWire(o.Wire, o.WireRate); err != nil {
		return nil, err
	}
	spec.Normalize(engines.Names())
	if o.Explain && len(spec.AddExplainVariants()) == 0 {
		return nil, fmt.Errorf("--explain switches options of container environments, and this study has none besides the baseline (%s): add one, e.g. --envs native,docker-bridge", spec.Baseline)
	}
	if err := spec.Validate(engines.Names()); err != nil {
		return nil, err
	}
	if err := spec.CheckPaperID(paperIDs); err != nil {
		return nil, err
	}
	return spec, spec.CheckHost()
}

// Check refuses a study given twice (--cmd with a study or --resume), a
// --cmd that cannot be run and a host label reports cannot show: options
// that cannot mean together whichever flags gave them.
func (o Options) Check() error {
	if o.Command.Used() && (o.Study != "" || o.Resume) {
		return fmt.Errorf("--cmd measures one command instead of a study: give no study (and no --resume)")
	}
	if o.Command.Used() {
		if _, err := o.Command.Spec(); err != nil {
			return err
		}
	}
	if o.HostLabel != "" {
		if err := hostinfo.CheckLabel(o.HostLabel); err != nil {
			return fmt.Errorf("--host-label: %v", err)
		}
	}
	return nil
}

// CheckPaperID refuses a spec whose paper id is not among ids (the papers
// with published values); nil ids check nothing.
func (s *Spec) CheckPaperID(ids []string) error {
	if ids == nil || s.Paper == nil || s.Paper.ID == "" || slices.Contains(ids, s.Paper.ID) {
		return nil
	}
	return fmt.Errorf("%s: paper id %q has no published values; valid papers: %s", s.File(), s.Paper.ID, strings.Join(ids, ", "))
}

// RepetitionsLine says how the study's repetitions compare with the
// paper's, and the adaptive target; "" when there is neither.
func (s *Spec) RepetitionsLine() string {
	var parts []string
	if s.Paper != nil && s.Paper.Repetitions > 0 {
		id := s.Paper.ID
		if id == "" {
			id = "no published values"
		}
		parts = append(parts, fmt.Sprintf("repetitions: %d here, %d in the paper (%s)", s.Repetitions, s.Paper.Repetitions, id))
		if s.Repetitions < s.Paper.Repetitions && s.Adaptive == nil {
			parts = append(parts, "--reps paper runs the paper's count")
		}
	}
	if a := s.Adaptive; a != nil {
		line := fmt.Sprintf("adaptive: rounds are added until every cell is decided (a firm cost beyond ±%g%%, or no difference within it), at most %d rounds", a.PrecisionPct, a.MaxRepetitions)
		if s.Budget > 0 {
			line += fmt.Sprintf(", within %s", s.Budget)
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, "; ")
}
