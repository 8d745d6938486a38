package mqtt

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/hostprog"
	"golang.org/x/sys/unix"
)

// mosquitto is a running mosquitto broker that this process started, with
// a configuration of its own in a temporary directory.
type mosquitto struct {
	path    string
	addr    string // where it listens, host:port
	version string // e.g. "mosquitto 2.0.11"
	dir     string
	proc    *hostprog.Process
	exited  <-chan struct{} // closed when it exited (and was reaped)
}

// mosquittoConfig is the broker's whole configuration: one listener,
// anonymous clients, nothing kept on disk, messages never dropped for a
// slow subscriber within a run, errors and warnings on stderr. `user root`
// keeps it from switching to a "mosquitto" user that a scratch container
// has no entry for (it applies only when started as root).
func mosquittoConfig(host, port string) string {
	return fmt.Sprintf(`# written by boxtax for one mqtt.pub run
listener %s %s
allow_anonymous true
persistence false
user root
log_dest stderr
log_type error
log_type warning
max_connections -1
max_queued_messages 1000000
`, port, host)
}

// startMosquitto starts the mosquitto at path listening at addr (port 0
// picks a free one) and returns once it runs; see accepting.
func startMosquitto(path, addr string) (*mosquitto, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if port == "0" {
		if port, err = freePort(host); err != nil {
			return nil, err
		}
	}
	m := &mosquitto{path: path, addr: net.JoinHostPort(host, port), version: mosquittoVersion(path)}
	if m.dir, err = os.MkdirTemp("", "boxtax-mosquitto-"); err != nil {
		return nil, fmt.Errorf("making mosquitto's directory: %w (set TMPDIR to a writable place)", err)
	}
	conf := filepath.Join(m.dir, "mosquitto.conf")
	if err := os.WriteFile(conf, []byte(mosquittoConfig(host, port)), 0o644); err != nil {
		os.RemoveAll(m.dir)
		return nil, fmt.Errorf("writing mosquitto's configuration: %w", err)
	}
	cmd := exec.Command(path, "-c", conf)
	cmd.Dir = m.dir
	// Should this process die, mosquitto dies with it: nothing outlives a run.
	if m.proc, err = hostprog.Start(path, cmd); err != nil {
		os.RemoveAll(m.dir)
		return nil, err
	}
	m.exited = m.proc.Exited()
	raiseFileLimit(m.proc.Pid())
	return m, nil
}

// raiseFileLimit lets the broker hold as many connections as this process
// may: Go raises its own soft limit on open files to the hard one but gives
// the programs it starts the original soft limit (often 1024).
func raiseFileLimit(pid int) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return
	}
	lim.Cur = lim.Max
	_ = unix.Prlimit(pid, unix.RLIMIT_NOFILE, &lim, nil)
}

// freePort picks a TCP port free on host.
func freePort(host string) (string, error) {
	ln, err := net.Listen("tcp4", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("finding a free port on %s: %w", host, err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port, nil
}

// mosquittoVersion is what `mosquitto -h` says of itself on its first
// line ("mosquitto version 2.0.11"), as "mosquitto 2.0.11".
func mosquittoVersion(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, path, "-h").CombinedOutput() // exits non-zero after printing its help
	first, _, _ := strings.Cut(string(out), "\n")
	if v, ok := strings.CutPrefix(strings.TrimSpace(first), "mosquitto version "); ok {
		return "mosquitto " + v
	}
	return "mosquitto (version unknown)"
}

// dialAddr is where a client on this machine reaches the broker: a
// wildcard listen address is reached at 127.0.0.1.
func dialAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// exitReason says how mosquitto ended, with the end of what it printed.
func (m *mosquitto) exitReason() string {
	<-m.exited
	msg := "exited"
	if err := m.proc.Err(); err != nil {
		msg = err.Error()
	}
	if s := strings.TrimSpace(string(bytes.ToValidUTF8([]byte(m.proc.Output()), nil))); s != "" {
		msg += ": " + s
	}
	return msg
}

// stop ends mosquitto (SIGTERM, then SIGKILL after 5 s), reaps it and
// removes its directory. It may be called more than once.
func (m *mosquitto) stop() {
	m.proc.Stop(syscall.SIGTERM, 5*time.Second)
	os.RemoveAll(m.dir)
}
