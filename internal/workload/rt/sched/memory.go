package sched

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// LockMemory locks the process's pages in RAM, present and future
// (mlockall MCL_CURRENT|MCL_FUTURE), so that no page fault can delay the
// task. The error says what is missing when the kernel refuses.
func LockMemory() error {
	err := unix.Mlockall(unix.MCL_CURRENT | unix.MCL_FUTURE)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ENOMEM) || errors.Is(err, unix.EPERM) {
		var rl unix.Rlimit
		_ = unix.Getrlimit(unix.RLIMIT_MEMLOCK, &rl)
		limit := "unlimited"
		if rl.Cur != unix.RLIM_INFINITY {
			limit = fmt.Sprintf("%d KiB", rl.Cur/1024)
		}
		return fmt.Errorf("cannot lock memory (mlockall): %w: the memory lock limit is %s (ulimit -l) and the process lacks CAP_IPC_LOCK: "+
			"run as root, raise the limit (ulimit -l unlimited), give a container --cap-add IPC_LOCK, or set lock_memory: false", err, limit)
	}
	return fmt.Errorf("cannot lock memory (mlockall): %w", err)
}

// UnlockMemory undoes LockMemory.
func UnlockMemory() { _ = unix.Munlockall() }
