package sched

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Isolation is the record of KeepOthersOff: the other threads' CPU sets
// before, to put back.
type Isolation struct {
	cpu   int
	self  int
	saved map[int]unix.CPUSet // thread id -> its CPU set before
	// Moved is how many threads were moved off the CPU.
	Moved int
}

// KeepOthersOff moves every other thread of the process (the runtime's
// sysmon, idle Ms, the template thread, the threads of other goroutines)
// off cpu, so that none of them wakes on the CPU a task measures on: a
// real-time wake-up that finds another thread of its own process in the
// kernel on its CPU waits for it. Threads created later inherit the set of
// the thread that creates them; the calling thread, pinned to cpu and
// locked, creates none while it measures (a locked thread's new threads
// come from the runtime's template thread, which is moved too). The caller
// must hold its thread and be pinned to cpu already. It fails when the
// process may run on cpu only.
func KeepOthersOff(cpu int) (*Isolation, error) {
	iso := &Isolation{cpu: cpu, self: unix.Gettid(), saved: map[int]unix.CPUSet{}}
	// Twice: a thread being created while the first pass reads the list
	// may have copied a set from before.
	for range 2 {
		tids, err := threads()
		if err != nil {
			return iso, err
		}
		for _, tid := range tids {
			if tid == iso.self {
				continue
			}
			var set unix.CPUSet
			if err := unix.SchedGetaffinity(tid, &set); err != nil {
				continue // ended meanwhile
			}
			if _, seen := iso.saved[tid]; !seen {
				iso.saved[tid] = set
			}
			if !set.IsSet(cpu) {
				continue
			}
			set.Clear(cpu)
			if set.Count() == 0 {
				return iso, fmt.Errorf("thread %d may run on CPU %d only: no other CPU to keep it on", tid, cpu)
			}
			if err := unix.SchedSetaffinity(tid, &set); err != nil {
				return iso, fmt.Errorf("moving thread %d off CPU %d: %w", tid, cpu, err)
			}
			iso.Moved++
		}
	}
	return iso, nil
}

// Restore gives every thread moved by KeepOthersOff its CPU set back, and
// the measured CPU back to threads made since then (they inherited a set
// without it from a moved thread). It never narrows a thread's set: once, a
// fallback to the first thread's set gave every thread the measured CPU
// alone, because the first thread had been left pinned there (CI, issue 42).
func (iso *Isolation) Restore() {
	tids, err := threads()
	if err != nil {
		return
	}
	for _, tid := range tids {
		if tid == iso.self {
			continue
		}
		set, ok := iso.saved[tid]
		if !ok {
			if unix.SchedGetaffinity(tid, &set) != nil || set.IsSet(iso.cpu) {
				continue
			}
			set.Set(iso.cpu)
		}
		_ = unix.SchedSetaffinity(tid, &set)
	}
}

// threads lists the process's thread ids.
func threads() ([]int, error) {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("listing the process's threads: %w", err)
	}
	tids := make([]int, 0, len(entries))
	for _, e := range entries {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}
