package sched

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Pin binds the calling OS thread to one CPU. The caller must hold its
// thread (runtime.LockOSThread).
func Pin(cpu int) error {
	if cpu < 0 || cpu >= runtime.NumCPU() {
		return fmt.Errorf("cannot pin to CPU %d: this machine has CPUs 0 to %d", cpu, runtime.NumCPU()-1)
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pinning to CPU %d: %w (is it outside the container's or process's cpuset?)", cpu, err)
	}
	return nil
}

// CurrentCPU is the CPU the calling thread runs on now.
func CurrentCPU() int {
	var cpu, node uint32
	_, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), uintptr(unsafe.Pointer(&node)), 0)
	if e != 0 {
		return -1
	}
	return int(cpu)
}

// BlockPreemption blocks SIGURG, the Go runtime's preemption signal, on the
// calling thread, so that it cannot interrupt a measuring loop; the signal
// stays pending until UnblockPreemption. The caller must hold its thread and
// must call only go:nosplit functions until it unblocks (see the package doc).
func BlockPreemption() error {
	var set unix.Sigset_t
	sigaddset(&set, unix.SIGURG)
	return unix.PthreadSigmask(unix.SIG_BLOCK, &set, nil)
}

// UnblockPreemption undoes BlockPreemption.
func UnblockPreemption() {
	var set unix.Sigset_t
	sigaddset(&set, unix.SIGURG)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
}

func sigaddset(set *unix.Sigset_t, sig unix.Signal) {
	width := uint(unsafe.Sizeof(set.Val[0])) * 8
	bit := uint(sig) - 1
	set.Val[bit/width] |= 1 << (bit % width)
}
