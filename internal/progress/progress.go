// Package progress shows how far a study has come: a bar with an ETA on a
// terminal, plain periodic lines elsewhere (CI logs, pipes).
package progress

import (
	"fmt"
	"io"
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
	// 28: the count ran on across rounds, "94/18 runs done, ETA -12s").
	p.total, p.before, p.start = total, alreadyDone, p.now()
	p.done, p.failed = 0, 0
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
	p.current = label(r)
	if p.terminal {
		p.drawBar()
	}
}

// RunEnded implements study.Progress.
func (p *Reporter) RunEnded(r store.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Status == store.RunFailed {
		p.failed++
		if p.terminal {
			fmt.Fprint(p.w, "\r\033[K")
		}
		fmt.Fprintf(p.w, "run %d (%s) failed: %s\n", r.Seq+1, label(r), termtext.Visible(r.Reason))
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
	fmt.Fprintf(p.w, "\r\033[K[%s] %d/%d %s  %s", bar, p.done, p.total, p.eta(), p.current)
}

func (p *Reporter) eta() string {
	if p.done == 0 {
		return "ETA unknown"
	}
	elapsed := p.now().Sub(p.start)
	left := time.Duration(float64(elapsed) / float64(p.done) * float64(p.total-p.done))
	if p.done == p.total {
		return "done in " + elapsed.Round(time.Second).String()
	}
	return "ETA " + left.Round(time.Second).String()
}

// label names a run in the progress lines: workload @ environment.
func label(r store.Run) string {
	s := r.Workload + " @ " + r.Env
	if r.Warmup {
		s += " (warm-up)"
	}
	return termtext.Visible(s) // names from a study file: shown, not obeyed
}
