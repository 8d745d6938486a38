package lxc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/netcmd"
)

// LXCCleanResult says what RemoveLXCLeftovers removed.
type LXCCleanResult struct {
	Containers []string // containers of boxtax processes that no longer run
	Bridges    []string // their bridges
	Rootfs     []string // root filesystem directories no running boxtax uses
}

// RemoveLXCLeftovers removes what boxtax processes that no longer run left
// of their LXC containers (a controller killed with SIGKILL cannot clean
// up): the containers themselves (lxc-stop -k), their veth pairs, cgroups,
// port rules and directories, the processes' bridges and rules; then the
// root filesystems that no running boxtax uses. Containers of running
// controllers are left alone. It is what `boxtax clean` does for LXC.
func RemoveLXCLeftovers(ctx context.Context) (LXCCleanResult, error) {
	var res LXCCleanResult
	if os.Geteuid() != 0 {
		return res, nil // nothing of boxtax's LXC can exist without root
	}
	var err error
	res.Containers, res.Bridges, err = removeStaleLXC(ctx)
	rootfs, rerr := removeUnusedLXCRootfs()
	res.Rootfs = rootfs
	return res, errors.Join(err, rerr)
}

// Clean implements Cleaner: RemoveLXCLeftovers, said in a line when it
// removed something.
func (l *lxcEnv) Clean(ctx context.Context, _ env.CleanOptions) ([]string, error) {
	res, err := RemoveLXCLeftovers(ctx)
	if n := len(res.Containers) + len(res.Bridges) + len(res.Rootfs); n == 0 {
		return nil, err
	}
	return []string{fmt.Sprintf("removed LXC leftovers of boxtax processes that no longer run: %d container(s) %s, %d bridge(s) %s; %d unused root filesystem(s) %s",
		len(res.Containers), strings.Join(res.Containers, " "), len(res.Bridges), strings.Join(res.Bridges, " "), len(res.Rootfs), strings.Join(res.Rootfs, " "))}, err
}

// removeStaleLXC removes the containers, bridges and rules of boxtax
// processes that no longer run.
func removeStaleLXC(ctx context.Context) (containers, bridges []string, err error) {
	var errs []error
	dead := map[int]bool{}
	entries, _ := os.ReadDir(lxcContainersDir())
	for _, e := range entries {
		pid, n, ok := parseLXCName(e.Name())
		if !ok || env.ProcessAlive(pid) {
			continue
		}
		dead[pid] = true
		inst := &lxcInstance{name: e.Name(), dir: filepath.Join(lxcContainersDir(), e.Name()), veth: lxcVethName(pid, n),
			comment: lxcRuleComment + strconv.Itoa(pid) + ":" + e.Name()}
		_ = netcmd.Run(ctx, "lxc-stop", "-P", lxcContainersDir(), "-n", inst.name, "-k")
		if err := inst.cleanup(ctx, true); err != nil {
			errs = append(errs, err)
			continue
		}
		containers = append(containers, e.Name())
	}
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if pid, err := strconv.Atoi(strings.TrimPrefix(ifc.Name, lxcBridgePrefix)); err == nil && strings.HasPrefix(ifc.Name, lxcBridgePrefix) && !env.ProcessAlive(pid) {
			dead[pid] = true
		}
	}
	for _, table := range []string{"nat", "filter"} {
		rules, _ := lxcRules(ctx, table)
		for _, r := range rules {
			pidStr, _, _ := strings.Cut(strings.TrimPrefix(r.Comment, lxcRuleComment), ":")
			if pid, err := strconv.Atoi(pidStr); err == nil && !env.ProcessAlive(pid) {
				dead[pid] = true
			}
		}
	}
	for pid := range dead {
		if pid == os.Getpid() {
			continue
		}
		if _, err := net.InterfaceByName(lxcBridgePrefix + strconv.Itoa(pid)); err == nil {
			bridges = append(bridges, lxcBridgePrefix+strconv.Itoa(pid))
		}
		if err := removeLXCNetwork(ctx, pid); err != nil {
			errs = append(errs, err)
		}
	}
	return containers, bridges, errors.Join(errs...)
}

// parseLXCName reads boxtax-<pid>-<n>.
func parseLXCName(name string) (pid, n int, ok bool) {
	rest, ok := strings.CutPrefix(name, "boxtax-")
	if !ok {
		return 0, 0, false
	}
	a, b, ok := strings.Cut(rest, "-")
	pid, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	return pid, n, ok && err1 == nil && err2 == nil
}

// removeLXCCgroups removes the cgroups LXC made for a container
// (lxc.payload.<name>, lxc.monitor.<name>, in every hierarchy), killing
// what still runs in them first. LXC removes them itself when lxc-execute
// ends normally; they stay when it was killed.
func removeLXCCgroups(name string) error {
	var errs []error
	for _, dir := range findLXCCgroups(name) {
		// Deepest first: a cgroup with children cannot be removed.
		var sub []string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				sub = append(sub, p)
			}
			return nil
		})
		for k := len(sub) - 1; k >= 0; k-- {
			killCgroup(sub[k])
			if err := syscall.Rmdir(sub[k]); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, &fs.PathError{Op: "rmdir", Path: sub[k], Err: err})
			}
		}
	}
	return errors.Join(errs...)
}

// findLXCCgroups lists the cgroup directories of a container, up to four
// levels below each hierarchy (LXC makes them below the cgroup of the
// process that started the container).
func findLXCCgroups(name string) []string {
	var out []string
	want := map[string]bool{"lxc.payload." + name: true, "lxc.monitor." + name: true}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if want[e.Name()] {
				out = append(out, p)
				continue
			}
			if depth < 4 && !strings.HasPrefix(e.Name(), "lxc.payload.") && !strings.HasPrefix(e.Name(), "lxc.monitor.") {
				walk(p, depth+1)
			}
		}
	}
	walk("/sys/fs/cgroup", 0)
	return out
}

// killCgroup kills the processes of a cgroup.
func killCgroup(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// cgroupV2 tells whether /sys/fs/cgroup is the unified hierarchy (cgroup
// v2), for which LXC takes lxc.cgroup2.* keys; on a v1 or hybrid host it
// takes lxc.cgroup.* keys for the v1 controllers.
func cgroupV2() bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/sys/fs/cgroup", &st); err != nil {
		return false
	}
	const cgroup2Magic = 0x63677270
	return st.Type == cgroup2Magic
}
