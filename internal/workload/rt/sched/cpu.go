package sched

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Pin binds the calling OS thread to one CPU and returns the function that
// gives it back the CPUs it had. The caller must hold its thread
// (runtime.LockOSThread) and call unpin before its goroutine ends: a locked
// goroutine that ends on the process's main thread does not end the thread
// but parks it for good, and a parked thread pinned to the CPU would keep
// the next task's KeepOthersOff from isolating it.
func Pin(cpu int) (unpin func(), err error) {
	if cpu < 0 || cpu >= runtime.NumCPU() {
		return nil, fmt.Errorf("cannot pin to CPU %d: this machine has CPUs 0 to %d", cpu, runtime.NumCPU()-1)
	}
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		return nil, fmt.Errorf("reading the thread's CPUs: %w", err)
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("pinning to CPU %d: %w (is it outside the container's or process's cpuset?)", cpu, err)
	}
	return func() { _ = unix.SchedSetaffinity(0, &before) }, nil
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
