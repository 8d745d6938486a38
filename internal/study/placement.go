package study

import (
	"fmt"
	"strconv"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/study/launch"
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
		case launch.PlacementFactor:
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
		case launch.PlaceAny, launch.PlaceShared:
		case launch.PlaceDedicated:
			cpus, err := s.studyCPUs()
			if err == nil && maxInstances > len(cpus) {
				bad(place.Pos, "placement dedicated needs a CPU per instance: %d instances, but only %d CPUs (%s); lower the instances or use shared", maxInstances, len(cpus), cpus)
			}
		default:
			bad(place.Pos, "placement level %q: valid levels are any, dedicated, shared", level)
		}
	}
}
