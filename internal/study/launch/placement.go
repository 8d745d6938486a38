package launch

import (
	"fmt"

	"github.com/boxtax/boxtax/internal/cpuset"
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

// CPUSets gives each of a run's instances its CPU set ("" for no pinning),
// as the run's placement level says, from the CPUs placement uses (asked
// only when a level pins).
func CPUSets(levels map[string]string, studyCPUs func() (cpuset.Set, error)) ([]string, error) {
	n := Instances(levels)
	out := make([]string, n)
	place, ok := levels[PlacementFactor]
	if !ok || place == PlaceAny {
		return out, nil
	}
	cpus, err := studyCPUs()
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
