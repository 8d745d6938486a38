package study

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/study/launch"
)

// validateWire checks the wire factor's levels and that the study has a
// workload it applies to.
func (s *Spec) validateWire(f Factor, bad func(Pos, string, ...any)) {
	for _, lv := range f.Levels {
		if _, err := launch.ParseWireLevel(fmt.Sprint(lv)); err != nil {
			bad(f.Pos, "factor wire: %v", err)
		}
	}
	if !s.hasNetworkWorkload() {
		bad(f.Pos, "factor wire says where a network workload's client stands, but the study runs none (network workloads: %s)",
			strings.Join(launch.NetworkWorkloads(), ", "))
	}
}

// SetWire sets the study's wire factor as the command line asks: levels
// replace the spec's (when given), and rate shapes every netns level (when
// given). Levels are checked by Validate.
func (s *Spec) SetWire(levels []string, rate string) error {
	if len(levels) == 0 && rate == "" {
		return nil
	}
	if rate != "" {
		if _, err := launch.ParseWireLevel(launch.WireNetns + ":" + rate); err != nil {
			return fmt.Errorf("--wire-rate %s: %w", rate, err)
		}
	}
	i := -1
	for k, f := range s.Factors {
		if f.Name == launch.WireFactor {
			i = k
		}
	}
	if i < 0 {
		if len(levels) == 0 {
			levels = []string{launch.WireNetns}
		}
		s.Factors = append(s.Factors, Factor{Name: launch.WireFactor})
		i = len(s.Factors) - 1
	}
	if len(levels) > 0 {
		s.Factors[i].Levels = nil
		for _, l := range levels {
			s.Factors[i].Levels = append(s.Factors[i].Levels, l)
		}
	}
	if rate != "" {
		for k, lv := range s.Factors[i].Levels {
			if kind, _, _ := strings.Cut(fmt.Sprint(lv), ":"); kind == launch.WireNetns {
				s.Factors[i].Levels[k] = launch.WireNetns + ":" + rate
			}
		}
	}
	return nil
}

// wireLevels lists the wire factor's levels as written.
func (s *Spec) wireLevels() []string {
	var out []string
	for _, f := range s.Factors {
		if f.Name == launch.WireFactor {
			for _, lv := range f.Levels {
				out = append(out, fmt.Sprint(lv))
			}
		}
	}
	return out
}

// CheckWire tries, before the study starts, whether its wire levels can be
// made here (see launch.CheckWire).
func (s *Spec) CheckWire(ctx context.Context) error { return launch.CheckWire(ctx, s.wireLevels()) }

// CheckWireEnvs refuses, before the study starts, a wire level that one of
// its environments cannot serve (see launch.CheckWireEnvs).
func (s *Spec) CheckWireEnvs(envs map[string]env.Environment) error {
	if !s.hasNetworkWorkload() {
		return nil
	}
	return launch.CheckWireEnvs(s.wireLevels(), envs)
}

// hasNetworkWorkload tells whether the study runs a workload the wire applies to.
func (s *Spec) hasNetworkWorkload() bool {
	for _, w := range s.Workloads {
		if launch.IsNetwork(w.Name) {
			return true
		}
	}
	return false
}
