package worker

import (
	"strconv"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Note keys of a side's own CPU time (issue 40): the client's as they are,
// the server's as server.cpu_s and server.cpu_pct (workload.FromServer).
const (
	NoteCPUSeconds = "cpu_s"   // user + system seconds of the side's process and the children it waited for
	NoteCPUPercent = "cpu_pct" // NoteCPUSeconds over the side's wall time, in percent of one CPU
)

// processCPU is the user and system time of this process and of the
// children it has waited for (a server program such as mosquitto, run by
// the worker).
func processCPU() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) != nil {
			continue
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}

// noteSideCPU measures what one side of a network workload cost the CPU
// while it ran, so the report can show the probe's cost beside the
// server's: a client that takes a CPU from the server it measures bends the
// overhead it reports.
func noteSideCPU(em *workload.JSONEmitter, run func() error) error {
	cpu0, wall0 := processCPU(), time.Now()
	err := run()
	cpu, wall := processCPU()-cpu0, time.Since(wall0)
	em.Note(NoteCPUSeconds, strconv.FormatFloat(cpu.Seconds(), 'f', 3, 64))
	if wall > 0 {
		em.Note(NoteCPUPercent, strconv.FormatFloat(100*cpu.Seconds()/wall.Seconds(), 'f', 1, 64))
	}
	return err
}
