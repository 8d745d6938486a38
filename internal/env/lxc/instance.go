package lxc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/netcmd"
	"github.com/boxtax/boxtax/internal/wire"
)

// lxcInstance is a worker running in an LXC container under lxc-execute.
type lxcInstance struct {
	name, dir, veth, comment string
	ip                       netip.Addr
	stdout, stderr           io.Writer
	settings                 env.Settings

	cmd     *exec.Cmd
	exited  chan struct{} // closed when lxc-execute exited and the output is copied
	waitErr error
	stopped atomic.Bool
	// published tells that port rules were added; killed that lxc-execute
	// was killed, so LXC could not remove the veth and cgroups itself.
	published, killed bool

	stopOnce sync.Once
	stopErr  error
}

func (i *lxcInstance) Settings() env.Settings { return i.settings }

// Wait blocks until lxc-execute exited (with the worker) and the output is copied.
func (i *lxcInstance) Wait() error {
	<-i.exited
	if i.waitErr == nil {
		return nil
	}
	if i.stopped.Load() {
		return fmt.Errorf("container %s was stopped before it exited", i.name)
	}
	var ee *exec.ExitError
	if errors.As(i.waitErr, &ee) && ee.ExitCode() > 0 {
		return fmt.Errorf("container %s exited with code %d", i.name, ee.ExitCode())
	}
	return fmt.Errorf("container %s: lxc-execute: %w", i.name, i.waitErr)
}

// Stop kills the container if it still runs (lxc-stop -k, as a user
// would), waits for lxc-execute to end, and removes everything made for the
// container: its port rules, its veth (LXC deletes it, unless killed), its
// cgroups (likewise) and its directory. It is idempotent and safe while
// Wait blocks.
func (i *lxcInstance) Stop(ctx context.Context) error {
	i.stopOnce.Do(func() { i.stopErr = i.stop(ctx) })
	return i.stopErr
}

func (i *lxcInstance) stop(ctx context.Context) error {
	var errs []error
	select {
	case <-i.exited:
	default:
		i.stopped.Store(true)
		killCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		// lxc-stop -k sends SIGKILL to the container's init through LXC's
		// command socket; lxc-execute then ends and cleans up itself.
		_ = netcmd.Run(killCtx, "lxc-stop", "-P", lxcContainersDir(), "-n", i.name, "-k")
		cancel()
		select {
		case <-i.exited:
		case <-time.After(3 * time.Second):
			// Not up yet, or LXC did not answer: kill lxc-execute; the
			// container's init dies with it (LXC sets its parent-death signal).
			i.killed = true
			_ = syscall.Kill(-i.cmd.Process.Pid, syscall.SIGKILL)
			select {
			case <-i.exited:
			case <-ctx.Done():
				errs = append(errs, fmt.Errorf("lxc-execute of container %s (pid %d) did not exit after SIGKILL", i.name, i.cmd.Process.Pid))
			}
		}
	}
	if err := i.cleanup(ctx, i.killed); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// cleanup removes what Start made for the container; what is gone already
// is no error. thorough also removes what LXC removes itself when
// lxc-execute ends normally: the veth pair and the cgroups.
func (i *lxcInstance) cleanup(ctx context.Context, thorough bool) error {
	var errs []error
	if i.published || thorough {
		errs = append(errs, removeLXCRules(ctx, i.comment, false))
	}
	if thorough {
		if err := netcmd.Run(ctx, "ip", "link", "del", i.veth); err != nil && !wire.Gone(err) {
			errs = append(errs, err)
		}
		errs = append(errs, removeLXCCgroups(i.name))
	}
	if i.dir != "" {
		if err := os.RemoveAll(i.dir); err != nil {
			errs = append(errs, err)
		}
	}
	if i.ip.IsValid() {
		lxcNet.release(i.ip)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("removing LXC container %s: %w (boxtax clean removes what is left)", i.name, err)
	}
	return nil
}
