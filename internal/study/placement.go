package study

import (
	"fmt"
	"strconv"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/study/launch"
)

// PlacementFactor is the reserved factor that says where instances run:
//   - any: the scheduler decides (the seeds' "random" setup), no pinning;
//   - dedicated: the study's CPUs are split into one disjoint set per instance;
//   - shared: every instance is pinned to the same set, all the study's CPUs.
//
// Natively the worker pins itself (sched_setaffinity); in a container the
// set becomes its cpuset. The set each instance got is recorded with the run.
const PlacementFactor = "placement"

// Placement levels.
const (
	PlaceAny       = "any"
	PlaceDedicated = "dedicated"
	PlaceShared    = "shared"
)

// studyCPUs are the CPUs placement uses: the spec's cpus, or every online CPU.
func (s *Spec) studyCPUs() (cpuset.Set, error) {
	online, err := cpuset.Online()
	if s.CPUs == "" {
		return online, err
	}
	set, perr := cpuset.Parse(s.CPUs)
	if perr != nil {
		return nil, perr
	}
	if err == nil {
		if err := set.Within(online); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// CPUSets gives each of a run's instances its CPU set ("" for no pinning),
// as the run's placement level says.
func (s *Spec) CPUSets(levels map[string]string) ([]string, error) {
	n := instancesOf(levels)
	out := make([]string, n)
	place, ok := levels[PlacementFactor]
	if !ok || place == PlaceAny {
		return out, nil
	}
	cpus, err := s.studyCPUs()
	if err != nil {
		return nil, err
	}
	switch place {
	case PlaceShared:
		for i := range out {
			out[i] = cpus.String()
		}
	case PlaceDedicated:
		parts, err := cpus.Split(n)
		if err != nil {
			return nil, fmt.Errorf("dedicated placement: %w", err)
		}
		for i, p := range parts {
			out[i] = p.String()
		}
	default:
		return nil, fmt.Errorf("placement %q: valid levels are any, dedicated, shared", place)
	}
	return out, nil
}

// validatePlacement checks the placement levels and that every cell's
// placement can be made on this host, before the study starts.
func (s *Spec) validatePlacement(bad func(Pos, string, ...any)) {
	if s.CPUs != "" {
		if _, err := s.studyCPUs(); err != nil {
			bad(Pos{}, "cpus: %v", err)
			return
		}
	}
	var place, inst *Factor
	for i := range s.Factors {
		switch s.Factors[i].Name {
		case PlacementFactor:
			place = &s.Factors[i]
		case launch.InstancesFactor:
			inst = &s.Factors[i]
		}
	}
	if place == nil {
		return
	}
	maxInstances := 1
	if inst != nil {
		for _, lv := range inst.Levels {
			if n, err := strconv.Atoi(fmt.Sprint(lv)); err == nil && n > maxInstances {
				maxInstances = n
			}
		}
	}
	for _, lv := range place.Levels {
		level := fmt.Sprint(lv)
		switch level {
		case PlaceAny, PlaceShared:
		case PlaceDedicated:
			cpus, err := s.studyCPUs()
			if err == nil && maxInstances > len(cpus) {
				bad(place.Pos, "placement dedicated needs a CPU per instance: %d instances, but only %d CPUs (%s); lower the instances or use shared", maxInstances, len(cpus), cpus)
			}
		default:
			bad(place.Pos, "placement level %q: valid levels are any, dedicated, shared", level)
		}
	}
}
