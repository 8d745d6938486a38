package env

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// LabelController names the boxtax process that started a container:
// "<boot id>:<pid>:<start time in clock ticks since boot>" (beside the
// controller's host/pid label that the study sets, which cannot tell a
// live controller from a later process with the same pid). `boxtax clean`
// leaves the containers of a controller that still runs alone, so that it
// never pulls a container out from under a study in progress; the boot id
// and start time tell a live controller from a later process that reuses
// its pid.
const LabelController = "io.boxtax.controller.process"

// ThisController is the LabelController value of this process, read on
// first use (two files of /proc) rather than at package init, which every
// boxtax process, a worker too, pays at its start (issue 40).
var ThisController = sync.OnceValue(func() string { return controllerID(os.Getpid()) })

// controllerID is the LabelController value of the process pid on this
// boot, or "" when it cannot be read.
func controllerID(pid int) string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	start, ok := processStart(pid)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", strings.TrimSpace(string(boot)), pid, start)
}

// processStart is field 22 of /proc/PID/stat: when the process started, in
// clock ticks since boot.
func processStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 20 { // fields 3.. after the name; start time is field 22
		return 0, false
	}
	v, err := strconv.ParseUint(fields[19], 10, 64)
	return v, err == nil
}

// ControllerAlive says whether the controller a LabelController value
// names still runs on this machine. A value from another boot or another
// machine, or an empty one (a container of an older boxtax), is not alive.
func ControllerAlive(id string) bool {
	parts := strings.Split(id, ":")
	if len(parts) != 3 {
		return false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	return controllerID(pid) == id
}

// Labels boxtax puts on what it creates, so that `boxtax clean` finds it.
const (
	LabelManaged = "io.boxtax.managed"
	LabelVersion = "io.boxtax.version"
)

// ProcessAlive tells whether a process with this id runs.
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
