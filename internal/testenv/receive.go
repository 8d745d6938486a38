package testenv

import (
	"testing"
	"time"
)

// Receive returns the value that comes on ch within d, or stops the test
// saying what is still going on ("the formula is still expanding") and
// for how long: a test that waits for a goroutine never hangs the suite.
func Receive[T any](tb testing.TB, ch <-chan T, d time.Duration, what string) T {
	tb.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	var v T
	select {
	case v = <-ch:
	case <-timer.C:
		tb.Fatalf("%s after %v", what, d)
	}
	return v
}
