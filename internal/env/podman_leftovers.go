package env

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
)

// podmanDirPrefix names the directories of the Podman services boxtax
// starts (startPodmanService): the private socket, the service's log and
// podmanControllerFile.
const podmanDirPrefix = "boxtax-podman-"

// podmanControllerFile, in a service's directory, holds the controller id
// (labelController) of the boxtax process that started the service.
const podmanControllerFile = "controller"

// recordPodmanController writes this process's controller id into the
// directory of a service it starts, so that `boxtax clean` can tell the
// service of a boxtax killed outright from one a study still uses.
func recordPodmanController(dir string) error {
	return os.WriteFile(filepath.Join(dir, podmanControllerFile), []byte(thisController+"\n"), 0o644)
}

// removePodmanLeftovers removes what the Podman services of boxtax
// processes that no longer run left: a rootless service as another user
// outlives a boxtax killed with SIGKILL (its parent-death signal reaches
// only the first podman process), and so do its containers and its
// directory. For each such directory it removes boxtax's containers in the
// service (while it answers), stops the service's processes, and removes
// the directory; the services of running boxtax processes stay.
func removePodmanLeftovers(ctx context.Context) (done []string, err error) {
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
		case err == nil && ControllerAlive(strings.TrimSpace(string(id))):
			continue // a study uses it
		case err != nil && !errors.Is(err, os.ErrNotExist):
			errs = append(errs, err)
			continue
		case err != nil && anyParentAlive(pids):
			continue // an older boxtax's, which recorded no controller: it may still run
		}
		n, err := removePodmanContainers(ctx, dir)
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
	if len(gone) > 0 {
		done = append(done, fmt.Sprintf("removed %d Podman service director(ies) of boxtax processes that no longer run, with %d service process(es) and %d container(s): %s",
			len(gone), stopped, containers, strings.Join(gone, " ")))
	}
	return done, errors.Join(errs...)
}

// removePodmanContainers removes boxtax's containers of controllers that
// no longer run in the service whose socket is in dir, if it answers.
func removePodmanContainers(ctx context.Context, dir string) (int, error) {
	sock := filepath.Join(dir, "podman.sock")
	if _, err := os.Stat(sock); err != nil {
		return 0, nil
	}
	c, err := docker.NewClient("unix://" + sock)
	if err != nil {
		return 0, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = c.Ping(pingCtx)
	cancel()
	if err != nil {
		return 0, nil // the service is gone: so are its containers' means of removal; nothing answers
	}
	res, err := removeManaged(ctx, c, map[string]string{labelManaged: "true"}, false)
	return res.removed, err
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
			if processAlive(pid) && !zombie(pid) {
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
