package study

import (
	"os"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// memAvailable reads MemAvailable from /proc/meminfo, in bytes; 0 if unknown.
func memAvailable() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// validateMemory refuses, before the study starts, a cell whose concurrent
// instances would need more memory than the host has available.
func (s *Spec) validateMemory(cells []Cell, bad func(Pos, string, ...any)) {
	avail := memAvailable()
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
