package docker

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// shortTempDir makes a directory with a path short enough for a unix socket
// (at most 107 bytes), which t.TempDir does not promise.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// pingUnreachable pings c, which must fail with an *UnreachableError,
// and returns that error. It must fail, not hang: at most pingTimeout and
// 30 s more for a busy machine (a liveness bound, not a speed; the error
// of a silent daemon names pingTimeout itself).
func pingUnreachable(t *testing.T, c *Client) error {
	t.Helper()
	start := time.Now()
	err := c.Ping(context.Background())
	if took := time.Since(start); took > pingTimeout+30*time.Second {
		t.Errorf("Ping took %v to fail, want it to fail, not hang", took)
	}
	var unreachable *UnreachableError
	if !errors.As(err, &unreachable) {
		t.Fatalf("error = %v (%T), want an *UnreachableError", err, err)
	}
	return err
}

func TestPingUnreachableDaemon(t *testing.T) {
	dir := shortTempDir(t)
	refused := filepath.Join(dir, "refused.sock")
	l, err := net.Listen("unix", refused)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close() // the socket file stays, nobody listens: connection refused

	tests := []struct {
		name string
		host string
	}{
		{name: "no socket file", host: "unix://" + filepath.Join(dir, "missing.sock")},
		{name: "nobody listening", host: "unix://" + refused},
		{name: "closed TCP port", host: "tcp://127.0.0.1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DOCKER_HOST", tt.host)
			c, err := FromEnv()
			if err != nil {
				t.Fatal(err)
			}
			err = pingUnreachable(t, c)
			want := "cannot reach Docker at " + tt.host + ": is the daemon running? " +
				"Start it (systemctl start docker), set DOCKER_HOST, or use --envs native"
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error = %q\nwant it to start with %q", err, want)
			}
		})
	}
}

func TestUnreachablePermissionDenied(t *testing.T) {
	dialErr := &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", syscall.EACCES)}
	err := &UnreachableError{Host: DefaultHost, Err: dialErr}
	for _, want := range []string{
		"cannot reach Docker at unix:///var/run/docker.sock: permission denied",
		"add your user to the docker group",
		"run as root",
		"connect: permission denied",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if !errors.Is(err, syscall.EACCES) {
		t.Error("the error does not unwrap to EACCES")
	}
}

func TestPingSilentDaemonTimesOut(t *testing.T) {
	sock := filepath.Join(shortTempDir(t), "silent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accept and never answer
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			defer conn.Close()
		}
	}()
	c, err := NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	err = pingUnreachable(t, c)
	if !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("error = %v, want an *UnreachableError about no answer", err)
	}
}
