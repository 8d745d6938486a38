package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/crash"
)

// TestPanicExitsWithCrashCode is issue 15 item 15: a panic in a command
// exits with ExitCrash and prints the panic and its stack. ExitCrash is
// the crash package's code, which a panic in a background goroutine exits
// with, so every crash of the controller exits alike.
func TestPanicExitsWithCrashCode(t *testing.T) {
	var stderr bytes.Buffer
	g := &Globals{Stderr: &stderr}
	cmd := command{run: func(context.Context, *Globals, []string) error { panic("index out of range") }}
	err, crashed := runGuarded(context.Background(), g, cmd, []string{"report"})
	if !crashed || err != nil || ExitCrash != crash.ExitCode {
		t.Fatalf("crashed %v, err %v; want a crash", crashed, err)
	}
	if s := stderr.String(); !strings.Contains(s, "index out of range") || !strings.Contains(s, "goroutine") {
		t.Errorf("stderr %q lacks the panic and its stack", s)
	}
}
