package study

import (
	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/workload"
)

// disturbance is the runner's limits of a disturbed run: Disturb, else
// none (monitor.Off), as a runner built by hand in a test has it.
func (r *Runner) disturbance() monitor.DisturbLimits {
	if r.Disturb == nil {
		return monitor.Off
	}
	return *r.Disturb
}

// usesStorage tells whether the workload does I/O of its own (a disk
// workload), whose iowait is then no disturbance.
func usesStorage(wl workload.Workload) bool {
	u, ok := wl.(workload.StorageUser)
	return ok && u.UsesStorage()
}
