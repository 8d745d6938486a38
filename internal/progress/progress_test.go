package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
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

// TestSettleWaitShownAndCounted is issue 27 item 5: the wait for a quiet
// host before a run is said as it goes (what it waits for, the load it
// sees), and the ETA says how much of it is settling.
func TestSettleWaitShownAndCounted(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var b strings.Builder
		p := New(&b, terminal, 0)
		clock := time.Unix(1000, 0)
		p.now = func() time.Time { return clock }
		p.Begin(3, 0)
		r := store.Run{Seq: 0, Workload: "cmd", Env: "native"}
		p.RunStarted(r)
		p.Waiting("settling: host 35% busy > 10%, 4s")
		if !strings.Contains(b.String(), "cmd @ native") || !strings.Contains(b.String(), "settling: host 35% busy > 10%, 4s") {
			t.Errorf("terminal %v: the wait is not shown: %q", terminal, b.String())
		}
		clock = clock.Add(10 * time.Second)
		r.Status, r.Settings = store.RunOK, map[string]string{"settle_ms": "8000"}
		p.RunEnded(r)
		// 10 s a run, 8 of them settling: 20 s to go, 16 of them settling.
		if !strings.Contains(b.String(), "ETA 20s (16s of it settling") {
			t.Errorf("terminal %v: the ETA does not count the settling: %q", terminal, b.String())
		}
		b.Reset()
		r.Settings = nil
		p.RunStarted(r)
		p.RunEnded(r)
		if strings.Contains(b.String(), "35% busy") {
			t.Errorf("terminal %v: a wait is shown after its run: %q", terminal, b.String())
		}
	}
}

// TestEachBeginCountsItsOwnRuns: an adaptive study begins again for every
// round it adds; the count starts over with the runs before it said once,
// never "94/18 runs done, ETA -12s" (issue 28).
func TestEachBeginCountsItsOwnRuns(t *testing.T) {
	var b strings.Builder
	p := New(&b, false, 0)
	clock := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	p.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	run := store.Run{Workload: "cpu.prime", Env: "native", Status: store.RunOK, Settings: map[string]string{"settle_ms": "900"}}
	p.Begin(6, 0)
	for range 6 {
		p.RunStarted(run)
		p.RunEnded(run)
	}
	p.End()
	b.Reset()
	p.Begin(2, 6) // the next round
	for range 2 {
		p.RunStarted(run)
		p.RunEnded(run)
	}
	p.End()
	out := b.String()
	testenv.Says(t, "the second round's lines", out, "2 runs to do (6 done before)", "1/2 runs done, 0 failed", "2/2 runs done, 0 failed")
	if strings.Contains(out, "ETA -") || strings.Contains(out, "7/2") {
		t.Errorf("the count ran on across rounds:\n%s", out)
	}
	// The settle wait is this round's too: 2 runs of 0.9 s, not 8.
	if !strings.Contains(out, "(2s of it settling)") || strings.Contains(out, "(7s of it settling)") {
		t.Errorf("the settle wait ran on across rounds:\n%s", out)
	}
}
