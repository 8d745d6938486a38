package fleet

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// ForegroundTerminal returns f when it is a terminal and this process's
// group is in its foreground (boxtax run from an interactive shell, not
// with &), for Options.Terminal; otherwise nil.
func ForegroundTerminal(f *os.File) *os.File {
	if f == nil {
		return nil
	}
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	if err != nil || pgrp != unix.Getpgrp() {
		return nil
	}
	return f
}

// takeForeground makes this process's group the terminal's foreground
// again, once Ansible's group had it. A background group may do so only
// while it ignores SIGTTOU, which would stop it otherwise.
func takeForeground(tty *os.File) {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	_ = unix.IoctlSetPointerInt(int(tty.Fd()), unix.TIOCSPGRP, unix.Getpgrp())
}
