package podman

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	dockerenv "github.com/boxtax/boxtax/internal/env/docker"
)

// podmanDirPrefix names the directories of the Podman services boxtax
// starts (startPodmanService): the private socket, the service's log and
// podmanControllerFile.
const podmanDirPrefix = "boxtax-podman-"

// podmanStagePrefix names a service directory while newServiceDir makes
// it, before it holds podmanControllerFile: clean's glob of podmanDirPrefix
// does not match it, so a clean running beside a study never takes the
// new directory of a live service for a leftover.
const podmanStagePrefix = "boxtax-podman.new-"

// podmanControllerFile, in a service's directory, holds the controller id
// (LabelController) of the boxtax process that started the service.
const podmanControllerFile = "controller"

// newServiceDir makes the directory of a service this process starts,
// with this process's controller id in it (so that `boxtax clean` can tell
// the service of a boxtax killed outright from one a study still uses):
// made under a staging name and renamed, it appears under podmanDirPrefix
// with the file already there.
func newServiceDir() (string, error) {
	stage, err := os.MkdirTemp("", podmanStagePrefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(stage, podmanControllerFile), []byte(env.ThisController()+"\n"), 0o644); err != nil {
		os.RemoveAll(stage)
		return "", err
	}
	dir := filepath.Join(filepath.Dir(stage), podmanDirPrefix+strings.TrimPrefix(filepath.Base(stage), podmanStagePrefix))
	if err := os.Rename(stage, dir); err != nil {
		os.RemoveAll(stage)
		return "", err
	}
	return dir, nil
}

// staleStages are the staging directories (newServiceDir) of boxtax
// processes killed while making them: older than a minute (a live one is
// renamed within milliseconds) and of no running controller.
func staleStages() []string {
	stages, _ := filepath.Glob(filepath.Join(os.TempDir(), podmanStagePrefix+"*"))
	var stale []string
	for _, d := range stages {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || time.Since(fi.ModTime()) < time.Minute {
			continue
		}
		if id, err := os.ReadFile(filepath.Join(d, podmanControllerFile)); err == nil && env.ControllerAlive(strings.TrimSpace(string(id))) {
			continue
		}
		stale = append(stale, d)
	}
	return stale
}

// RemoveLeftovers removes what the Podman services of boxtax
// processes that no longer run left: a rootless service as another user
// outlives a boxtax killed with SIGKILL (its parent-death signal reaches
// only the first podman process), and so do its containers and its
// directory. For each such directory it removes boxtax's containers in the
// service (while it answers), stops the service's processes, and removes
// the directory; the services of running boxtax processes stay.
func RemoveLeftovers(ctx context.Context, getenv func(string) string) (done []string, err error) {
	dirs, err := filepath.Glob(filepath.Join(os.TempDir(), podmanDirPrefix+"*"))
	if err != nil {
		return nil, err
	}
	var errs []error
	var gone []string
	containers, stopped := 0, 0
	for _, dir := range dirs {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			continue
		}
		pids := podmanServiceProcesses(dir)
		id, err := os.ReadFile(filepath.Join(dir, podmanControllerFile))
		switch {
		case err == nil && env.ControllerAlive(strings.TrimSpace(string(id))):
			continue // a study uses it
		case err != nil && !errors.Is(err, os.ErrNotExist):
			errs = append(errs, err)
			continue
		case err != nil && anyParentAlive(pids):
			continue // an older boxtax's, which recorded no controller: it may still run
		}
		n, err := removePodmanContainers(ctx, dir, getenv)
		containers += n
		if err != nil {
			errs = append(errs, fmt.Errorf("removing boxtax's containers in the Podman service at %s: %w", dir, err))
			continue
		}
		if err := stopProcesses(pids); err != nil {
			errs = append(errs, fmt.Errorf("stopping the Podman service at %s: %w", dir, err))
			continue
		}
		stopped += len(pids)
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		gone = append(gone, dir)
	}
	for _, d := range staleStages() {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
			continue
		}
		gone = append(gone, d)
	}
	if len(gone) > 0 {
		done = append(done, fmt.Sprintf("removed %d Podman service director(ies) of boxtax processes that no longer run, with %d service process(es) and %d container(s): %s",
			len(gone), stopped, containers, strings.Join(gone, " ")))
	}
	return done, errors.Join(errs...)
}

// removePodmanContainers removes boxtax's containers of controllers that
// no longer run in the store of the service whose directory is dir: through
// that service while it answers, else, for a rootless service of another
// user (the directory's owner), through that user's service or one started
// for the purpose. A rootful service's store is the one boxtax clean
// cleans through podman-host. A service whose boxtax was just killed may
// still answer and then end in the middle (its parent-death signal is on
// its way): what it failed to remove, the user's service removes.
func removePodmanContainers(ctx context.Context, dir string, getenv func(string) string) (int, error) {
	c, err := docker.NewClient("unix://" + filepath.Join(dir, "podman.sock"))
	if err != nil {
		return 0, err
	}
	labels := map[string]string{env.LabelManaged: "true"}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = c.Ping(pingCtx)
	cancel()
	var removed int
	var failed error // through the service itself, ended meanwhile or not
	if err == nil {
		res, err := dockerenv.RemoveManaged(ctx, c, labels, false)
		if err == nil {
			return res.Removed, nil
		}
		removed, failed = res.Removed, err
	}
	u, err := dirUser(dir)
	if u == nil || err != nil {
		return removed, errors.Join(failed, err)
	}
	svc, err := openPodmanService(ctx, u, "", getenv)
	if err != nil {
		return removed, err
	}
	res, err := dockerenv.RemoveManaged(ctx, svc.client, labels, false)
	return removed + res.Removed, errors.Join(err, svc.close(context.WithoutCancel(ctx)))
}

// dirUser is the rootless user who owns a service's directory, nil when
// it is this process's own (a rootful service, or boxtax not run as root).
func dirUser(dir string) (*podmanUser, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() || os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.LookupId(strconv.Itoa(int(st.Uid)))
	if err != nil {
		return nil, fmt.Errorf("the owner of %s: %w", dir, err)
	}
	gid, _ := strconv.Atoi(u.Gid)
	return &podmanUser{name: u.Username, uid: int(st.Uid), gid: gid, home: u.HomeDir}, nil
}

// podmanServiceProcesses are the processes whose command line names a
// file in dir: the service (podman system service ... unix://DIR/podman.sock)
// and what it re-executed of itself.
func podmanServiceProcesses(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	needle := []byte(dir + "/")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, needle) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// anyParentAlive says whether one of the processes has a parent other than
// init: a process that started it may still run.
func anyParentAlive(pids []int) bool {
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		fields := strings.Fields(string(b[i+1:]))
		if len(fields) > 1 {
			if ppid, err := strconv.Atoi(fields[1]); err == nil && ppid > 1 && !slices.Contains(pids, ppid) {
				return true
			}
		}
	}
	return false
}

// stopProcesses ends the processes: SIGTERM, then SIGKILL to those left
// after 10 s.
func stopProcesses(pids []int) error {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var left []int
		for _, pid := range pids {
			if env.ProcessAlive(pid) && !zombie(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// zombie says whether the process has ended and waits for its parent.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	fields := strings.Fields(string(b[i+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}
