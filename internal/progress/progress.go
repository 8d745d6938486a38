// Package progress shows how far a study has come: a bar with an ETA on a
// terminal, plain periodic lines elsewhere (CI logs, pipes).
package progress

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/termtext"
)

// Reporter implements study.Progress by writing to a terminal or a log.
type Reporter struct {
	w        io.Writer
	terminal bool
	every    time.Duration // plain mode: at most one line per interval
	now      func() time.Time

	mu          sync.Mutex
	total, done int
	before      int // runs done before this invocation (resume)
	failed      int
	start       time.Time
	lastLine    time.Time
	current     string
	width       int
	waiting     string        // what the run about to start waits for
	lastWait    time.Time     // plain mode: when a wait was last said
	settled     time.Duration // of the runs done: waiting for a quiet host (their settle_ms)
}

// New writes progress to w; terminal selects the bar, otherwise a line is
// written at most every interval and for each failed run.
func New(w io.Writer, terminal bool, interval time.Duration) *Reporter {
	return &Reporter{w: w, terminal: terminal, every: interval, now: time.Now, width: 24}
}

// Begin implements study.Progress.
func (p *Reporter) Begin(total, alreadyDone int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Each call counts its own runs: an adaptive study calls Begin again for
	// every round it adds, with the runs done so far as alreadyDone (issue
	// 28: the count ran on across rounds, "94/18 runs done, ETA -12s"),
	// and so does the settle wait ("done in 2s (44s of it settling)").
	p.total, p.before, p.start = total, alreadyDone, p.now()
	p.done, p.failed, p.settled = 0, 0, 0
	p.lastLine = p.start
	resumed := ""
	if alreadyDone > 0 {
		resumed = fmt.Sprintf(" (%d done before)", alreadyDone)
	}
	fmt.Fprintf(p.w, "%d runs to do%s\n", total, resumed)
}

// RunStarted implements study.Progress.
func (p *Reporter) RunStarted(r store.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current, p.waiting = label(r), ""
	if p.terminal {
		p.drawBar()
	}
}

// RunEnded implements study.Progress.
func (p *Reporter) RunEnded(r store.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.waiting = ""
	if ms, err := strconv.ParseInt(r.Settings["settle_ms"], 10, 64); err == nil {
		p.settled += time.Duration(ms) * time.Millisecond
	}
	if r.Status == store.RunFailed {
		p.failed++
		if p.terminal {
			fmt.Fprint(p.w, "\r\033[K")
		}
		fmt.Fprintf(p.w, "run %d (%s) failed: %s\n", r.Seq+1, label(r), termtext.Visible(r.Reason))
	}
	if r.Status == store.RunDisturbed {
		if p.terminal {
			fmt.Fprint(p.w, "\r\033[K")
		}
		fmt.Fprintf(p.w, "run %d (%s) disturbed, left out of the verdicts: %s\n", r.Seq+1, label(r), termtext.Visible(r.Reason))
	}
	if p.terminal {
		p.drawBar()
		return
	}
	if now := p.now(); now.Sub(p.lastLine) >= p.every || p.done == p.total {
		p.lastLine = now
		fmt.Fprintf(p.w, "%d/%d runs done, %d failed, elapsed %s, %s\n", p.done, p.total, p.failed,
			now.Sub(p.start).Round(time.Second), p.eta())
	}
}

// Waiting shows what the run about to start waits for, e.g. "settling:
// host 35% busy > 10%, 4s" (the settle wait was invisible: an ETA of 3
// minutes for 18 runs of echo, and nothing said why); "" ends the wait. On
// a terminal it follows the run's name on the bar; elsewhere it is a line
// at most once per interval.
func (p *Reporter) Waiting(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.waiting = termtext.Visible(what)
	if p.terminal {
		p.drawBar()
		return
	}
	if now := p.now(); what != "" && now.Sub(p.lastWait) >= p.every {
		p.lastWait = now
		fmt.Fprintf(p.w, "%s waits, %s\n", p.current, p.waiting)
	}
}

// End implements study.Progress.
func (p *Reporter) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		p.drawBar()
		fmt.Fprintln(p.w)
	}
}

func (p *Reporter) drawBar() {
	frac := 0.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	filled := int(frac * float64(p.width))
	bar := strings.Repeat("#", filled) + strings.Repeat(".", p.width-filled)
	what := p.current
	if p.waiting != "" {
		what += ", " + p.waiting
	}
	fmt.Fprintf(p.w, "\r\033[K[%s] %d/%d %s  %s", bar, p.done, p.total, p.eta(), what)
}

func (p *Reporter) eta() string {
	if p.done == 0 {
		return "ETA unknown"
	}
	elapsed := p.now().Sub(p.start)
	left := time.Duration(float64(elapsed) / float64(p.done) * float64(p.total-p.done))
	if p.done == p.total {
		return "done in " + elapsed.Round(time.Second).String() + p.settling(p.settled)
	}
	// The runs to come settle as the runs done did: the ETA counts it, and says how much.
	leftSettling := time.Duration(float64(p.settled) / float64(p.done) * float64(p.total-p.done))
	return "ETA " + left.Round(time.Second).String() + p.settling(leftSettling)
}

// settling says how much of d is the settle wait, when a second or more.
func (p *Reporter) settling(d time.Duration) string {
	if p.settled < time.Second {
		return ""
	}
	return " (" + d.Round(time.Second).String() + " of it settling)"
}

// label names a run in the progress lines: workload @ environment.
func label(r store.Run) string {
	s := r.Workload + " @ " + r.Env
	if r.Warmup {
		s += " (warm-up)"
	}
	return termtext.Visible(s) // names from a study file: shown, not obeyed
}
