package cpuset

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// PinProcess restricts every thread of this process to the set. Threads
// created later inherit the mask from the thread that creates them, so after
// this call the whole process stays on the set.
func PinProcess(s Set) error { return pinTasks("/proc/self/task", s) }

// PinPID restricts every thread of process pid to the set, as PinProcess
// does for this one (bench/fuseplace moves another program's daemon).
func PinPID(pid int, s Set) error { return pinTasks(fmt.Sprintf("/proc/%d/task", pid), s) }

// pinTasks sets the affinity of every thread listed in the task directory.
func pinTasks(dir string, s Set) error {
	var mask unix.CPUSet
	for _, c := range s {
		mask.Set(c)
	}
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("listing the threads in %s: %w", dir, err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &mask); err != nil && err != unix.ESRCH {
			return fmt.Errorf("pinning thread %d to CPUs %s: %w", tid, s, err)
		}
	}
	return nil
}

// Allowed reads the CPUs this process may run on (Cpus_allowed_list), which
// reflects both its affinity and a container's cpuset.
func Allowed() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
