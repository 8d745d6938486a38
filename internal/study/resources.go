package study

import (
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/workload"
)

// validateMemory refuses, before the study starts, a cell whose concurrent
// instances would need more memory than the host has available.
func (s *Spec) validateMemory(cells []Cell, bad func(Pos, string, ...any)) {
	avail := hostinfo.MemInfoBytes("MemAvailable")
	if avail == 0 {
		return
	}
	for _, c := range cells {
		wl, err := workload.Lookup(c.Workload)
		if err != nil {
			continue
		}
		need, err := workload.MemoryOf(wl, c.Params)
		if err != nil {
			bad(Pos{}, "%s: %v", c.Key(), err)
			continue
		}
		n := int64(instancesOf(c.Levels))
		if total := n * need; total > avail*9/10 {
			bad(Pos{}, "%s: %d instance(s) would need %.1f GiB of memory, but only %.1f GiB is available; lower the instances or the workload's size",
				c.Key(), n, float64(total)/(1<<30), float64(avail)/(1<<30))
		}
	}
}
