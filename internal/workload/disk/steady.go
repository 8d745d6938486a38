package disk

import (
	"fmt"
	"github.com/boxtax/boxtax/internal/workload"
	"math"
	"os"
	"strconv"
	"strings"
)

// Steady state, in the manner of SNIA's Solid State Storage Performance
// Test Specification (PTS): a figure is taken only from a window of
// consecutive passes (rounds) in which the storage no longer changes. PTS
// asks of the last 5 rounds that their values lie within 20 % of their
// average (the data excursion) and that the least-squares line through
// them moves by at most 10 % of the average over the window (the slope
// excursion). boxtax's passes are shorter and fewer (design note 015):
// the window and the band are parameters, the slope's limit is half the
// band, as PTS's is.

// steadyRule is when a window of passes counts as steady.
type steadyRule struct {
	window  int     // passes in the measurement window, at least 2
	bandPct float64 // the window's range may be at most this percentage of its mean
}

// steadiness is how a series of passes stands against a rule.
type steadiness struct {
	steady      bool
	passes      int     // passes made
	rangePct    float64 // the last window's max-min, percent of its mean
	slopePct    float64 // the least-squares line's rise over the window, percent of its mean
	windowMean  float64 // the last window's mean: the figure reported
	windowLo    float64 // its smallest
	windowHi    float64 // and largest value
	windowFirst int     // the 1-based number of its first pass
}

// judge tells whether the last rule.window values are steady: their range
// within bandPct of their mean and the least-squares line's rise across
// them within half of it. With fewer values than the window, it judges
// what there is, and steady is false (not yet shown).
func (rule steadyRule) judge(values []float64) steadiness {
	s := steadiness{passes: len(values)}
	if len(values) == 0 {
		return s
	}
	w := min(rule.window, len(values))
	win := values[len(values)-w:]
	s.windowFirst = len(values) - w + 1
	s.windowLo, s.windowHi = math.Inf(1), math.Inf(-1)
	sum := 0.0
	for _, v := range win {
		sum += v
		s.windowLo, s.windowHi = math.Min(s.windowLo, v), math.Max(s.windowHi, v)
	}
	s.windowMean = sum / float64(w)
	if s.windowMean <= 0 {
		return s
	}
	s.rangePct = (s.windowHi - s.windowLo) / s.windowMean * 100
	s.slopePct = math.Abs(slope(win)) * float64(w-1) / s.windowMean * 100
	s.steady = len(values) >= rule.window && rule.window >= 2 && s.rangePct <= rule.bandPct && s.slopePct <= rule.bandPct/2
	return s
}

// slope is the least-squares slope of values against 0, 1, 2, ...
func slope(values []float64) float64 {
	n := float64(len(values))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i, v := range values {
		x := float64(i)
		sx, sy, sxx, sxy = sx+x, sy+v, sxx+x*x, sxy+x*v
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// text says how a phase's passes stood, for the note steady_state:
// "rewrite steady after 4 passes (passes 2-4: 930-1019 MB/s, range 9% of
// the mean, band 20%)" or "rewrite not steady in 6 passes (...)".
func (s steadiness) text(phase, unit string, rule steadyRule) string {
	state := fmt.Sprintf("steady after %d passes", s.passes)
	if !s.steady {
		state = fmt.Sprintf("not steady in %d passes", s.passes)
	}
	return fmt.Sprintf("%s %s (passes %d-%d: %.0f-%.0f %s, range %.0f%% and slope %.0f%% of the mean, band %.0f%%)",
		phase, state, s.windowFirst, s.passes, s.windowLo, s.windowHi, unit, s.rangePct, s.slopePct, rule.bandPct)
}

// passList is the values of every pass as a note: "989 534 713".
func passList(values []float64) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strings.Join(parts, " ")
}

// steadyConfig is the parameters of the steady-state check a disk
// workload shares.
type steadyConfig struct {
	maxPasses int
	window    int
	bandPct   float64
}

// declare declares max_passes (with its default and description),
// steady_window and steady_band.
func (c *steadyConfig) declare(d *workload.Decl, maxPasses int, desc string) {
	d.Int(&c.maxPasses, "max_passes", maxPasses, desc)
	d.Min(1)
	d.Int(&c.window, "steady_window", 3, "passes in the steady-state window: the figure is their mean, and they must lie within steady_band of it")
	d.Min(1)
	d.Float(&c.bandPct, "steady_band", 20, "percent of the window's mean its passes may spread over (max - min), as SNIA PTS's data excursion; the least-squares line across them may rise or fall by half of it")
	d.Positive()
}

// check checks the steady-state parameters.
func (c *steadyConfig) check() error {
	switch {
	case c.maxPasses > 1 && c.window > c.maxPasses:
		return fmt.Errorf("parameter steady_window: %d passes cannot fit in max_passes %d: raise max_passes or lower steady_window", c.window, c.maxPasses)
	}
	return nil
}

// rule is the check the parameters ask for; with one pass the window is
// that pass.
func (c *steadyConfig) rule() steadyRule {
	if c.maxPasses == 1 {
		return steadyRule{window: 1, bandPct: c.bandPct}
	}
	return steadyRule{window: c.window, bandPct: c.bandPct}
}

// phaseState is one phase's passes and how they stood.
type phaseState struct {
	phase, unit string
	values      []float64
	state       steadiness
}

// noteSteadiness records the passes of each phase (notes PHASE_passes),
// how they stood (note steady_state) and, when one is not steady, a
// steady_warning that the report shows once per workload and environment.
// One pass (max_passes 1) records the pass and judges nothing.
func (c *steadyConfig) noteSteadiness(e workload.Emitter, phases []phaseState) {
	var texts, unsteady []string
	for _, p := range phases {
		e.Note(p.phase+"_passes", passList(p.values))
		if c.maxPasses == 1 {
			continue
		}
		texts = append(texts, p.state.text(p.phase, p.unit, c.rule()))
		if !p.state.steady {
			unsteady = append(unsteady, p.phase)
		}
	}
	if c.maxPasses == 1 {
		e.Note("steady_state", "not judged: one pass (max_passes 1)")
		return
	}
	e.Note("steady_state", strings.Join(texts, "; "))
	if len(unsteady) > 0 {
		// one message for every phase and workload, so that the report
		// says it once, naming the cells; note steady_state says which phase
		e.Note("steady_warning", fmt.Sprintf("not steady in %d passes (the last %d of a phase spread beyond %.0f%% of their mean, or trended; note steady_state says which): the storage changed state during the run, so its figure is of no stated state; a quieter host, or more passes (max_passes), may reach one",
			c.maxPasses, c.window, c.bandPct))
	}
}

// meminfoPath is the file the host's dirty memory is read from; a hook
// for tests.
var meminfoPath = "/proc/meminfo"

// noteDirty records the memory waiting to be written back to disk when
// the run starts (Dirty plus Writeback of /proc/meminfo, which a container
// shares with its host): another program's writes, which the fsyncs of
// this run wait behind. On the VM of design note 015 the rewrite ran at a
// third of its speed with 300 MB of others' writes pending.
func noteDirty(e workload.Emitter) {
	b, err := os.ReadFile(meminfoPath)
	if err != nil {
		return
	}
	var kB int64
	found := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "Dirty:" || f[0] == "Writeback:") {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				kB, found = kB+n, true
			}
		}
	}
	if found {
		e.Note("host_dirty_kB", strconv.FormatInt(kB, 10))
	}
}
