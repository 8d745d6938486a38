package podman

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/docker"
)

// podmanService is a Podman API service boxtax talks to: the user's (at
// CONTAINER_HOST, or Podman's default socket) or one boxtax started on a
// private socket (podman system service --time=0) and stops when the last
// environment using it closes. Both Podman environments of a study share
// it.
type podmanService struct {
	client   *docker.Client
	cmd      *exec.Cmd // nil: the user's service
	pid      int       // the service's process, 0 if unknown
	user     *podmanUser
	dir      string // the private socket's directory, with the service's log
	exited   chan error
	runtime  string // the OCI runtime boxtax chose for its own service, e.g. runc
	rootless bool
	// limits are the service's hard limits of open files and processes: a
	// container's limits can be no higher, and Podman's default of 1048576
	// open files is refused on hosts with a lower hard limit ("error setting
	// rlimit type 7: operation not permitted").
	limits map[string]int64
	refs   int
	key    podmanKey
	info   docker.Info
	// forward: boxtax's FORWARD rule for Podman's bridge is in place
	// (forward.go), to be removed with the service's last close.
	forward bool
}

// allowForward adds the FORWARD rule for published ports once.
func (s *podmanService) allowForward(ctx context.Context) error {
	podmanShared.Lock()
	defer podmanShared.Unlock()
	if s.forward {
		return nil
	}
	added, err := allowPodmanForward(ctx, s.client)
	s.forward = added
	return err
}

var podmanShared struct {
	sync.Mutex
	byUser map[podmanKey]*podmanService
}

// podmanKey tells services apart: the uid the service runs as (-1: this
// process's user) and the OCI runtime it was started with ("": the
// default; a runtime option, runtime.go).
type podmanKey struct {
	uid     int
	runtime string
}

// podmanUser is the ordinary user a rootless Podman service runs as when
// boxtax runs as root (podman-rootless); nil is boxtax's own user.
type podmanUser struct {
	name     string
	uid, gid int
	home     string
}

func (u *podmanUser) key() int {
	if u == nil {
		return -1
	}
	return u.uid
}

// runtimeDir is the user's XDG_RUNTIME_DIR, where Podman keeps its state.
func (u *podmanUser) runtimeDir() string { return fmt.Sprintf("/run/user/%d", u.uid) }

// podmanServiceTimeout bounds how long a new service may take to answer.
const podmanServiceTimeout = 20 * time.Second

// openPodmanService returns the process's Podman service, finding or
// starting it on first use; each call is paired with a close. With a
// runtime (runc, crun, runsc) it is always boxtax's own service, started
// with that runtime, one per runtime.
func openPodmanService(ctx context.Context, u *podmanUser, runtime string, getenv func(string) string) (*podmanService, error) {
	podmanShared.Lock()
	defer podmanShared.Unlock()
	key := podmanKey{u.key(), runtime}
	if s := podmanShared.byUser[key]; s != nil {
		s.refs++
		return s, nil
	}
	var s *podmanService
	var err error
	if runtime == "" {
		if s, err = findPodmanService(ctx, u, getenv); err != nil {
			return nil, err
		}
	}
	if s == nil {
		if s, err = startPodmanService(ctx, u, runtime, getenv); err != nil {
			return nil, err
		}
	}
	s.user, s.key = u, key
	info, err := s.client.Info(ctx)
	if err != nil {
		_ = s.stop()
		return nil, fmt.Errorf("asking the Podman service about itself: %w", err)
	}
	s.info = info
	s.rootless = info.Rootless() || s.pid > 0 && processUID(s.pid) != 0
	if s.runtime == "" {
		s.runtime = info.DefaultRuntime
	}
	s.refs = 1
	if podmanShared.byUser == nil {
		podmanShared.byUser = map[podmanKey]*podmanService{}
	}
	podmanShared.byUser[key] = s
	return s, nil
}

// close gives the service back; the last close stops a private service.
func (s *podmanService) close(ctx context.Context) error {
	podmanShared.Lock()
	defer podmanShared.Unlock()
	s.refs--
	if s.refs > 0 {
		return nil
	}
	if podmanShared.byUser[s.key] == s {
		delete(podmanShared.byUser, s.key)
	}
	var ferr error
	if s.forward {
		_, ferr = removePodmanForward(ctx, os.Getpid())
		s.forward = false
	}
	return errors.Join(ferr, s.stop())
}

// podmanSockets are where a user's Podman service listens: CONTAINER_HOST
// (Podman's own variable) when it names a unix socket, else the rootful
// socket for root and the user's rootless socket for others. getenv is
// the caller's environment (Options.Getenv), not necessarily the process's.
func podmanSockets(u *podmanUser, getenv func(string) string) []string {
	if u != nil {
		return []string{"unix://" + filepath.Join(u.runtimeDir(), "podman", "podman.sock")}
	}
	if h := getenv("CONTAINER_HOST"); strings.HasPrefix(h, "unix://") {
		return []string{h}
	}
	if os.Geteuid() == 0 {
		return []string{"unix:///run/podman/podman.sock"}
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return []string{"unix://" + filepath.Join(d, "podman", "podman.sock")}
	}
	return []string{fmt.Sprintf("unix:///run/user/%d/podman/podman.sock", os.Geteuid())}
}

// findPodmanService returns the user's Podman service when its socket
// answers as Podman does, nil when there is none.
func findPodmanService(ctx context.Context, u *podmanUser, getenv func(string) string) (*podmanService, error) {
	for _, host := range podmanSockets(u, getenv) {
		path := strings.TrimPrefix(host, "unix://")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		c, err := docker.NewClient(host)
		if err != nil {
			return nil, err
		}
		pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = c.Ping(pingCtx)
		cancel()
		if err != nil {
			continue // a stale socket file: start our own
		}
		e, err := c.Engine(ctx)
		if err != nil {
			return nil, fmt.Errorf("asking the service at %s what it is: %w", host, err)
		}
		if !strings.Contains(strings.ToLower(e.Name), "podman") {
			return nil, fmt.Errorf("the service at %s is %s, not Podman: unset CONTAINER_HOST or point it at a Podman socket", host, e.Name)
		}
		pid := peerPID(path)
		return &podmanService{client: c, pid: pid, limits: processLimits(pid)}, nil
	}
	return nil, nil
}

// startPodmanService starts podman system service on a private socket and
// waits until it answers. The service dies with boxtax (parent-death
// signal) should boxtax itself be killed.
func startPodmanService(ctx context.Context, u *podmanUser, ociRuntime string, getenv func(string) string) (*podmanService, error) {
	bin, err := exec.LookPath("podman")
	if err != nil {
		return nil, errors.New("podman is not installed (Debian/Ubuntu: apt-get install podman), " +
			"and no Podman service answers at " + strings.Join(podmanSockets(u, getenv), " or "))
	}
	dir, err := newServiceDir()
	if err != nil {
		return nil, err
	}
	sock := "unix://" + filepath.Join(dir, "podman.sock")
	var args []string
	runtime := ""
	if ociRuntime != "" {
		args, runtime = runtimeServiceArgs(ociRuntime), ociRuntime
	} else if r, why := podmanRuntimeFor(); r != "" {
		args = append(args, "--runtime", r)
		runtime = r + " (" + why + ")"
	}
	args = append(args, "system", "service", "--time=0", sock)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if u != nil {
		// Rootless Podman as the user: their own credentials, home and
		// runtime directory (made here if no login made it), and the
		// socket in a directory they own.
		if err := asPodmanUser(cmd, u, dir, getenv); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	logFile, err := os.Create(filepath.Join(dir, "service.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting podman system service: %w", err)
	}
	s := &podmanService{cmd: cmd, dir: dir, runtime: runtime, pid: cmd.Process.Pid}
	exited := make(chan error, 1)
	crash.Go(func() { exited <- cmd.Wait() })
	s.exited = exited
	if s.client, err = docker.NewClient(sock); err != nil {
		_ = s.stop()
		return nil, err
	}
	deadline := time.Now().Add(podmanServiceTimeout)
	for {
		pingCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := s.client.Ping(pingCtx)
		cancel()
		if err == nil {
			break
		}
		select {
		case werr := <-exited:
			s.exited = nil
			log := s.logTail()
			os.RemoveAll(dir)
			return nil, fmt.Errorf("podman system service ended at once (%v): %s", werr, log)
		case <-ctx.Done():
			_ = s.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log := s.logTail()
			_ = s.stop()
			return nil, fmt.Errorf("podman system service did not answer within %v: %v %s", podmanServiceTimeout, err, log)
		}
	}
	s.limits = processLimits(s.pid)
	return s, nil
}

// logTail is the end of a private service's log.
func (s *podmanService) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "service.log"))
	if len(b) > 2048 {
		b = b[len(b)-2048:]
	}
	return strings.TrimSpace(string(b))
}

// stop ends a private service: SIGTERM, then SIGKILL after 10 s, and
// removes its socket's directory. The user's service is left alone.
func (s *podmanService) stop() error {
	if s.cmd == nil {
		return nil
	}
	defer os.RemoveAll(s.dir)
	if s.exited == nil {
		return nil
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.exited
	}
	s.exited = nil
	return nil
}

// check says whether the service can run containers here: crun refuses
// hosts whose cgroups are mixed (v1 controllers with a v2 hierarchy
// mounted beside them, "cgroups in hybrid mode not supported").
func (s *podmanService) check(context.Context) error {
	if s.cmd == nil && strings.HasPrefix(s.info.DefaultRuntime, "crun") && cgroupHybrid() {
		return fmt.Errorf("the Podman service at %s runs containers with crun, which cannot run on this host's hybrid cgroup layout "+
			"(cgroup v1 controllers with cgroup2 mounted beside them): set runtime = \"runc\" under [engine] in /etc/containers/containers.conf "+
			"and restart the service, or stop it so that boxtax starts its own with runc", s.client.Host())
	}
	return nil
}

// explain adds what to do to Podman's errors that boxtax can explain.
func (s *podmanService) explain(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "hybrid mode not supported"):
		return fmt.Errorf("%w (crun cannot run on this host's hybrid cgroup layout: install runc, apt-get install runc)", err)
	case strings.Contains(msg, "setrlimit") || strings.Contains(msg, "error setting rlimit"):
		return fmt.Errorf("%w (a container's open-files or processes limit is above the Podman service's hard limit; boxtax asked for at most %v)", err, s.limits)
	}
	return err
}

// podmanRuntimeFor picks the OCI runtime of boxtax's own service where
// Podman's default would fail: runc on hybrid cgroup hosts, where crun
// (Debian's default when installed) refuses to run. Empty: Podman's default.
func podmanRuntimeFor() (runtime, why string) {
	if !cgroupHybrid() {
		return "", ""
	}
	if _, err := exec.LookPath("crun"); err != nil {
		return "", ""
	}
	for _, p := range []string{"runc", "/usr/sbin/runc", "/usr/bin/runc"} {
		if path, err := exec.LookPath(p); err == nil {
			return path, "crun cannot run on this host's hybrid cgroups"
		}
	}
	return "", ""
}

// cgroupHybrid tells whether cgroup v1 controllers and a cgroup2 hierarchy
// are both mounted (systemd's "hybrid" layout).
func cgroupHybrid() bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	defer f.Close()
	var v1, v2 bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		for i, fld := range fields {
			if fld == "-" && i+1 < len(fields) {
				switch fields[i+1] {
				case "cgroup":
					v1 = true
				case "cgroup2":
					v2 = true
				}
				break
			}
		}
	}
	return v1 && v2
}

// peerPID is the process listening on a unix socket (SO_PEERCRED), 0 if
// it cannot be told.
func peerPID(path string) int {
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return 0
	}
	defer conn.Close()
	raw, err := conn.(*net.UnixConn).SyscallConn()
	if err != nil {
		return 0
	}
	var pid int32
	_ = raw.Control(func(fd uintptr) {
		if cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
			pid = cred.Pid
		}
	})
	return int(pid)
}

// processUID is the real user id of a process, -1 if it cannot be read.
func processUID(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
			if uid, err := strconv.Atoi(f[1]); err == nil {
				return uid
			}
		}
	}
	return -1
}

// processLimits reads a process's hard limits of open files and processes
// from /proc/PID/limits; a limit it cannot read is left out.
func processLimits(pid int) map[string]int64 {
	out := map[string]int64{}
	if pid <= 0 {
		pid = os.Getpid()
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		var name string
		switch {
		case strings.HasPrefix(line, "Max open files"):
			name = "nofile"
		case strings.HasPrefix(line, "Max processes"):
			name = "nproc"
		default:
			continue
		}
		// "Max open files  20000  20000  files": the hard limit is the
		// second number.
		fields := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(line, "Max open files"), "Max processes"))
		if len(fields) < 2 {
			continue
		}
		if fields[1] == "unlimited" {
			continue
		}
		if v, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
			out[name] = v
		}
	}
	return out
}
