package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// Ctrl-C as a real process gets it: the notice each command gives, and a
// second signal that ends the process at once.

// TestStopNoticeOnlyWhereSomethingStarted: issue 25 item 23, serve, analyze
// and merge said "removing what this study started" on Ctrl-C.
func TestStopNoticeOnlyWhereSomethingStarted(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		want  string // "": says nothing
		never string
	}{
		{[]string{"run", "quick"}, "removing what this study started", ""},
		{[]string{"fleet", "run"}, "removing what this study started", ""},
		{[]string{"worker"}, "", ""},
		{[]string{"serve"}, "boxtax: stopping (Ctrl-C again to exit at once)", "removing"},
		{[]string{"analyze"}, "boxtax: stopping", "removing"},
		{[]string{"merge"}, "boxtax: stopping", "removing"},
		{nil, "boxtax: stopping", "removing"},
	} {
		got := StopNotice(tt.args)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) || tt.never != "" && strings.Contains(got, tt.never) {
			t.Errorf("%v: %q, want %q without %q", tt.args, got, tt.want, tt.never)
		}
	}
	// The real process: serve, interrupted once it serves.
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "empty.db")
	testenv.OpenStore(t, dbPath).Close() // an empty store
	cmd, stderr, waited := startBoxtax(t, "serve", "--db", dbPath, "--addr", "127.0.0.1:0")
	waitFor(t, 30*time.Second, "serve to listen", stderr, func() bool { return strings.Contains(stderr.String(), "serving the studies") })
	cmd.Process.Signal(syscall.SIGINT)
	<-waited
	if s := stderr.String(); strings.Contains(s, "removing") || !strings.Contains(s, "boxtax: stopping") {
		t.Errorf("serve said on Ctrl-C:\n%s", s)
	}
}

// fullPipe is a pipe whose buffer is full: whoever writes to w blocks
// until r is read, as with a terminal paused with Ctrl-S or a pager that
// does not read.
func fullPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	fd := int(w.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := syscall.Write(fd, chunk); err != nil {
			if errors.Is(err, syscall.EAGAIN) {
				break
			}
			t.Fatal(err)
		}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		t.Fatal(err)
	}
	return r, w
}

// TestSecondSignalEndsAStuckProcess: issue 25 item 12, a second signal
// had not ended boxtax after 8 s: it was handled by a goroutine, which a
// process that is stuck (here on a stderr nobody reads; on the device,
// a heap growing by 250 MB/s) never ran. After the first signal the
// second is the kernel's: the process ends within a second.
func TestSecondSignalEndsAStuckProcess(t *testing.T) {
	dir := t.TempDir()
	_, w := fullPipe(t)
	cmd := exec.Command(boxtaxBin, undisturbed([]string{"run", testdata(t, "slow.yaml"), "--envs", "native", "--db", filepath.Join(dir, "s.db"), "--settle", "0", "--monitor-interval", "0"})...)
	cmd.Stderr, cmd.Dir = w, dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	time.Sleep(time.Second) // stuck on its first line to stderr
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-waited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("ended with %v, want by SIGINT", err)
		}
		if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
			t.Errorf("ended with %v, want by SIGINT (the shell's 130)", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the second SIGINT did not end boxtax within 3 s")
	}
}

// TestSecondSignalAfterTheFirstCleanedUp: the first SIGINT still stops the
// container in flight and keeps the finished runs; a second one, once
// that is done, ends the process at once.
func TestSecondSignalAfterTheFirstCleanedUp(t *testing.T) {
	r := startSlowRun(t, nil, "i.db", "3", true)
	c, dbPath, cmd, stderr, pid := r.c, r.db, r.cmd, r.stderr, r.pid
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	cmd.Process.Signal(syscall.SIGINT)
	waitFor(t, 15*time.Second, "the container to be removed", stderr, func() bool { return len(containersOf(t, c, pid)) == 0 })
	if !strings.Contains(stderr.String(), "removing what this study started") {
		t.Errorf("run did not say it removes what it started:\n%s", stderr.String())
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-waited:
	case <-time.After(2 * time.Second):
		t.Fatalf("the second SIGINT did not end boxtax within 2 s; stderr:\n%s", stderr.String())
	}
	t.Logf("ended %v after the second SIGINT", time.Since(start))
	if okRuns(t, dbPath) < 1 {
		t.Error("the finished runs were not kept")
	}
	if left := containersOf(t, c, pid); len(left) > 0 {
		t.Errorf("%d containers left", len(left))
	}
}
