package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestSecondSignalExitsAtOnce: issue 15 item 8, a second SIGINT/SIGTERM
// must force the exit when the work ignores the context.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	ctx, cancel := interruptible(context.Background(), sigs, io.Discard, "stopping", func() {}, func(code int) { exited <- code })
	defer cancel()
	sigs <- syscall.SIGINT
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not cancel the context")
	}
	select {
	case code := <-exited:
		t.Fatalf("exited with %d after one signal", code)
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- syscall.SIGTERM
	select {
	case code := <-exited:
		if code != 130 {
			t.Fatalf("exit %d, want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not exit")
	}
}

// blockedWriter is a stderr nobody reads: a write waits forever.
type blockedWriter struct{}

func (blockedWriter) Write([]byte) (int, error) { select {} }

// TestFirstSignalReleasesBeforeItSpeaks: issue 25 item 12, the signals go
// back to their default action (release) as soon as the first one has
// cancelled the work, before the notice is written: a stderr that blocks
// must not keep a second signal from ending the process.
func TestFirstSignalReleasesBeforeItSpeaks(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	released := make(chan struct{})
	ctx, _ := interruptible(context.Background(), sigs, blockedWriter{}, "stopping", func() { close(released) }, func(int) {})
	sigs <- syscall.SIGINT
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("the signals were not released after the first one")
	}
	if ctx.Err() == nil {
		t.Error("released before the work was cancelled")
	}
}

// TestNoticeIsTheCommands: the notice is written as given, nothing when
// it is empty (the worker's), and before stop returns: the process ends
// right after stop, and serve, stopping at once, ended before its notice.
func TestNoticeIsTheCommands(t *testing.T) {
	for _, notice := range []string{"boxtax: stopping (Ctrl-C again to exit at once)", ""} {
		var out bytes.Buffer
		sigs := make(chan os.Signal, 2)
		ctx, stop := interruptible(context.Background(), sigs, &out, notice, func() {}, func(int) {})
		sigs <- syscall.SIGINT
		<-ctx.Done() // the work stops at once, as serve's does
		stop()
		want := ""
		if notice != "" {
			want = notice + "\n"
		}
		if out.String() != want {
			t.Errorf("wrote %q by the time stop returned, want %q", out.String(), want)
		}
	}
}
