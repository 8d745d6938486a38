package sched

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// nanotime is the runtime's CLOCK_MONOTONIC reading through the vDSO: the
// clock clock_nanosleep's absolute deadlines are on, at a few tens of ns a call.
// The runtime keeps this name linkable on purpose (go.dev/issue/67401).
//
//go:linkname nanotime runtime.nanotime
//go:noescape
func nanotime() int64

// Now returns CLOCK_MONOTONIC in nanoseconds.
//
//go:nosplit
func Now() int64 { return nanotime() }

// SleepUntil sleeps until CLOCK_MONOTONIC reaches deadlineNs
// (clock_nanosleep with TIMER_ABSTIME), restarting after signals. It returns
// at once when the deadline has passed. It is a raw system call: the Go
// scheduler does not see it, the goroutine keeps its P, and no preemption
// point is passed.
//
//go:nosplit
func SleepUntil(deadlineNs int64) unix.Errno {
	var ts unix.Timespec
	ts.Sec = timespecSec(deadlineNs / 1e9)
	ts.Nsec = timespecNsec(deadlineNs % 1e9)
	for {
		_, _, e := unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME,
			uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		if e != unix.EINTR {
			return e
		}
	}
}
