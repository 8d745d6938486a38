package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
)

// TestFailedRunReasonIsShownNotObeyed is issue 25 item 21: a failed run's
// reason (a program's output) and its names reach the terminal with their
// control characters made visible.
func TestFailedRunReasonIsShownNotObeyed(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var b strings.Builder
		p := New(&b, terminal, time.Hour)
		p.Begin(1, 0)
		r := store.Run{Seq: 0, Workload: "cpu.prime\x1b[8m", Env: "native", Status: store.RunFailed, Reason: "exit 1: \x1b]0;pwned\x07\x1b[2J"}
		p.RunStarted(r)
		p.RunEnded(r)
		out := b.String()
		if terminal {
			out = strings.ReplaceAll(out, "\r\033[K", "") // the bar's own redraw
		}
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("terminal %v: raw control characters reach the terminal: %q", terminal, out)
		}
		if !strings.Contains(out, `failed: exit 1: \x1b]0;pwned\x07\x1b[2J`) || !strings.Contains(out, `cpu.prime\x1b[8m @ native`) {
			t.Errorf("terminal %v: the reason and names should be shown escaped: %q", terminal, out)
		}
	}
}
