package main

import (
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
	ctx, cancel := interruptible(context.Background(), sigs, io.Discard, func(code int) { exited <- code })
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
