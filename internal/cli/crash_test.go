package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestPanicExitsWithCrashCode is issue 15 item 15: a panic in a command
// exits with ExitCrash and prints the panic and its stack.
func TestPanicExitsWithCrashCode(t *testing.T) {
	var stderr bytes.Buffer
	g := &Globals{Stderr: &stderr}
	cmd := command{run: func(context.Context, *Globals, []string) error { panic("index out of range") }}
	err, crashed := runGuarded(context.Background(), g, cmd, []string{"report"})
	if !crashed || err != nil || ExitCrash != 70 {
		t.Fatalf("crashed %v, err %v; want a crash", crashed, err)
	}
	if s := stderr.String(); !strings.Contains(s, "index out of range") || !strings.Contains(s, "goroutine") {
		t.Errorf("stderr %q lacks the panic and its stack", s)
	}
}
