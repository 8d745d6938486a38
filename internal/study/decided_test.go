package study

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study/rounds"
	"github.com/boxtax/boxtax/internal/testenv"
)

// newDecideStudy stores the study of yaml with scripted environments whose
// rate is around nativeRate and containerRate; every worker started moves
// the returned clock on by a second.
func newDecideStudy(t *testing.T, yaml string, nativeRate, containerRate float64) (*Runner, store.Study, []store.Run, *fakeClock) {
	t.Helper()
	s, db, st, runs := storedPlan(t, "decide.yaml", yaml)
	clock := &fakeClock{t: time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)}
	tick := func() { clock.t = clock.t.Add(time.Second) }
	r := &Runner{Store: db, Spec: s, Progress: quietProgress{}, Envs: map[string]env.Environment{
		"native":      &scriptedEnv{name: "native", base: nativeRate, tick: tick},
		"docker-host": &scriptedEnv{name: "docker-host", base: containerRate, tick: tick}}}
	return r, st, runs, clock
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// judgeStored is the stopping rule as study.Run applies it: result.Decide
// the stored runs and samples, with no CLI in between.
func judgeStored(r *Runner, st store.Study) func(context.Context) (result.Decisions, error) {
	return func(ctx context.Context) (result.Decisions, error) {
		runs, err := r.Store.Runs(ctx, st.ID)
		if err != nil {
			return result.Decisions{}, err
		}
		samples, err := r.Store.Samples(ctx, st.ID)
		if err != nil {
			return result.Decisions{}, err
		}
		return result.Decide(r.Spec.Layout(), runs, samples, false), nil
	}
}

// TestStoppingRuleDecidesAClearCostAtOnce: a container at half the native
// rate costs, shown by the first rounds' interval however wide; the study
// stops there instead of narrowing it to ±2 % (issue 28 item 5).
func TestStoppingRuleDecidesAClearCostAtOnce(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("2", "50"), 100, 50)
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: judgeStored(r, st), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if end.Stopped != StoppedDecided || end.Rounds != 2 || !end.Last.Done {
		t.Fatalf("stopped %q after %d rounds (done %v), want decided after the first 2", end.Stopped, end.Rounds, end.Last.Done)
	}
	if len(end.Last.Cells) != 2 {
		t.Fatalf("%d cells judged, want 2 (docker-host at 2 thread levels)", len(end.Last.Cells))
	}
	for _, c := range end.Last.Cells {
		if c.Verdict.Decision != stats.Costs || c.Verdict.Pct > -45 {
			t.Errorf("%s: %v %+.1f%%, want a cost near -50%%", c.Name(), c.Verdict.Decision, c.Verdict.Pct)
		}
	}
	if end.RoundTime != 4*time.Second {
		t.Errorf("round time %s, want 4s (4 runs of 1 s a round, the warm-up counted)", end.RoundTime)
	}
	lines := strings.Join(end.Lines(0), "\n")
	if !strings.Contains(lines, "every cell decided after 2 rounds: 2 of 2 cells decided (2 cost, 0 no difference beyond ±2%)") {
		t.Errorf("end lines:\n%s", lines)
	}
}

// roundsAway is judge with every undecided cell's estimate of further
// rounds set to more: with 1, a study that always looks about to decide,
// so that only the budget or max_repetitions ends it.
func roundsAway(judge func(context.Context) (result.Decisions, error), more int) func(context.Context) (result.Decisions, error) {
	return func(ctx context.Context) (result.Decisions, error) {
		d, err := judge(ctx)
		for i := range d.Cells {
			if !d.Cells[i].Decided() {
				d.Cells[i].Verdict.MoreRounds = more
			}
		}
		return d, err
	}
}

// TestCellsPastTheBudgetStillGetIt: cells estimated 20 rounds away, more
// than twice the rounds the budget leaves, but within the study's
// maximum: the nearest is measured on, focused, until the budget ends the
// study, not stopped as out of reach with time left (issue 43); with a
// maximum that leaves fewer than 20 rounds, it is out of reach.
func TestCellsPastTheBudgetStillGetIt(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("0.001", "50"), 100, 100)
	start := clock.t
	deadline := start.Add(30 * time.Second)
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: roundsAway(judgeStored(r, st), 20), Deadline: deadline, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	// 12 s for the warm-up and 2 rounds, then rounds of one cell and its
	// baseline, 2 s each, ending at 14, 16, ... 30 s: 9 of them.
	if end.Stopped != StoppedBudget || end.Rounds != 11 || end.Focused != 9 {
		t.Fatalf("stopped %q after %d rounds (%d focused), want the budget after 11, the last 9 focused", end.Stopped, end.Rounds, end.Focused)
	}
	if clock.t.After(deadline) {
		t.Errorf("the study ran until %s, past its deadline %s", clock.t.Sub(start), deadline.Sub(start))
	}

	r, st, runs, clock = newDecideStudy(t, adaptiveSpec("0.001", "10"), 100, 100)
	end, err = r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: roundsAway(judgeStored(r, st), 20), Deadline: clock.t.Add(30 * time.Second), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if end.Stopped != StoppedOutOfReach || end.Rounds != 2 {
		t.Fatalf("max 10: stopped %q after %d rounds, want out of reach after the 2 whole ones", end.Stopped, end.Rounds)
	}
}

// TestBudgetStopsAnUndecidedStudy: with cells undecided but estimated
// to be decided a round later, only the budget ends the study: it stops
// before a round that would end past the deadline, gives the last
// seconds to a focused round of the cell nearest its answer, and says
// which cells stayed undecided, their noise and about how much longer
// they need.
func TestBudgetStopsAnUndecidedStudy(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("0.001", "50"), 100, 100)
	start := clock.t
	deadline := start.Add(30 * time.Second)
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: roundsAway(judgeStored(r, st), 1), Deadline: deadline, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	// 12 s for the warm-up and 2 rounds, then 4 s a round: rounds 3 to 6
	// end at 16, 20, 24 and 28 s. A 7th whole round would end at 32 s,
	// past 30 s; one of the first cell and its baseline (2 s) ends at 30 s.
	if end.Stopped != StoppedBudget || end.Rounds != 7 || end.Focused != 1 {
		t.Fatalf("stopped %q after %d rounds (%d focused), want the budget after 7, the last focused", end.Stopped, end.Rounds, end.Focused)
	}
	if clock.t.After(deadline) {
		t.Errorf("the study ran until %s, past its deadline %s", clock.t.Sub(start), deadline.Sub(start))
	}
	rounds := storedRounds(t, r, st)
	for rep := range 6 {
		if len(rounds[rep]) != 4 {
			t.Errorf("round %d holds %v, want all 4 cells", rep+1, rounds[rep])
		}
	}
	if got := strings.Join(rounds[6], " "); got != "test.a|env=docker-host|threads=1 test.a|env=native|threads=1" {
		t.Errorf("round 7 holds %s, want the first cell and its baseline", got)
	}
	if len(end.Last.Undecided()) != 2 {
		t.Fatalf("undecided: %+v, want both cells", end.Last.Undecided())
	}
	lines := end.Lines(30 * time.Second)
	testenv.Says(t, "the end lines", strings.Join(lines, "\n"),
		"stopped after 7 rounds: another round (about 2s) would pass the budget of 30s",
		"2 of 2 cells undecided (neither a cost beyond ±0.001% nor no difference within it firmly shown)",
		"test.a threads=1 rate @ docker-host: ",
		"noise: CV ",
		"(baseline ",
		"more rounds (",
		" at 2s a round)")
	for _, c := range end.Last.Undecided() {
		if c.Verdict.MoreRounds < 1 || !(c.CVPct > 0) || !(c.BaselineCVPct > 0) {
			t.Errorf("%s: more rounds %d, CV %g%%, baseline CV %g%%: want an estimate and the measured noise", c.Name(), c.Verdict.MoreRounds, c.CVPct, c.BaselineCVPct)
		}
	}
}

// storedRounds are the cell keys of each measured round of the stored
// study, sorted, after checking that sequence numbers rise and that each
// run stands where a whole plan of that many rounds puts its cell.
func storedRounds(t *testing.T, r *Runner, st store.Study) [][]string {
	t.Helper()
	stored, err := r.Store.Runs(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	more := *r.Spec
	more.Repetitions = result.MeasuredRounds(stored)
	plan, err := more.Plan(st.Seed)
	if err != nil {
		t.Fatal(err)
	}
	rounds := make([][]string, more.Repetitions)
	for i, run := range stored {
		if i > 0 && run.Seq <= stored[i-1].Seq {
			t.Errorf("run %d has seq %d after %d", i, run.Seq, stored[i-1].Seq)
		}
		if run.Status != store.RunOK {
			t.Errorf("run %d: %s %s", run.Seq, run.Status, run.Reason)
		}
		if run.Seq >= len(plan) || plan[run.Seq].CellKey != run.CellKey || plan[run.Seq].Rep != run.Rep {
			t.Errorf("run seq %d is %s in round %d, not where the whole plan has it", run.Seq, run.CellKey, run.Rep+1)
		}
		if !run.Warmup {
			rounds[run.Rep] = append(rounds[run.Rep], run.CellKey)
		}
	}
	for _, keys := range rounds {
		slices.Sort(keys)
	}
	return rounds
}

// TestFocusedRoundsLeaveDecidedCellsOut: once the first rounds decide one
// cell (a cost), each round after them measures only the undecided cell
// and its baseline, in the places a whole round gives them, until the
// maximum ends the study.
func TestFocusedRoundsLeaveDecidedCellsOut(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("0.001", "5"), 100, 100)
	judge := func(ctx context.Context) (result.Decisions, error) {
		d, err := roundsAway(judgeStored(r, st), 1)(ctx)
		for i, c := range d.Cells {
			if strings.Contains(c.Row, "threads=2") {
				d.Cells[i].Verdict.Decision, d.Cells[i].Verdict.MoreRounds = stats.Costs, 0
			}
		}
		return d, err
	}
	var heard []string
	focused := func(round, cells, of int) { heard = append(heard, fmt.Sprintf("%d:%d/%d", round, cells, of)) }
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: judge, Now: clock.now, Focused: focused})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(heard, " "); got != "3:2/4 4:2/4 5:2/4" {
		t.Errorf("focused rounds heard: %s, want rounds 3 to 5 of 2 of 4 cells", got)
	}
	if end.Stopped != StoppedMax || end.Rounds != 5 || end.Focused != 3 {
		t.Fatalf("stopped %q after %d rounds (%d focused), want the maximum, 5, the last 3 focused", end.Stopped, end.Rounds, end.Focused)
	}
	rounds := storedRounds(t, r, st)
	for rep, keys := range rounds {
		want := "test.a|env=docker-host|threads=1 test.a|env=docker-host|threads=2 test.a|env=native|threads=1 test.a|env=native|threads=2"
		if rep >= 2 {
			want = "test.a|env=docker-host|threads=1 test.a|env=native|threads=1"
		}
		if got := strings.Join(keys, " "); got != want {
			t.Errorf("round %d holds %s, want %s", rep+1, got, want)
		}
	}
	checkEachRunOnce(t, r, st)
}

// TestMaxRoundsStillEndsAStudyWithoutBudget: no deadline, cells always
// a round away from their answer: the spec's max_repetitions ends it, and
// says so.
func TestMaxRoundsStillEndsAStudyWithoutBudget(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("0.001", "3"), 100, 100)
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: roundsAway(judgeStored(r, st), 1), Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if end.Stopped != StoppedMax || end.Rounds != 3 {
		t.Fatalf("stopped %q after %d rounds, want the maximum, 3", end.Stopped, end.Rounds)
	}
	// The rounds that would decide the cells pass the maximum: the advice
	// raises it too, or its budget would buy nothing.
	testenv.Says(t, "the end lines", strings.Join(end.Lines(0), "\n"),
		"stopped after 3 rounds, the most the study allows",
		"about 1 more rounds (",
		"would likely decide them all: a new run with --budget ",
		" --max-reps 4")
}

// TestOutOfReachStopsEarly: with a margin of 0.001 % that no interval of
// these values (the same in both environments) reaches, the study stops
// as soon as no cell's estimate of further rounds fits in the rounds left,
// long before its budget or maximum, says why, and still names each
// cell's noise and the time that would decide it.
func TestOutOfReachStopsEarly(t *testing.T) {
	r, st, runs, clock := newDecideStudy(t, adaptiveSpec("0.001", "50"), 100, 100)
	deadline := clock.t.Add(10 * time.Minute)
	end, err := r.ExecuteAdaptive(context.Background(), st, runs, Stopping{Judge: judgeStored(r, st), Deadline: deadline, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	if end.Stopped != StoppedOutOfReach || end.Rounds >= 10 {
		t.Fatalf("stopped %q after %d rounds, want out of reach within 10 of the 50 allowed", end.Stopped, end.Rounds)
	}
	left := end.RoundsLeft(50, Stopping{Deadline: deadline, Now: clock.now})
	if left != 50-end.Rounds {
		t.Errorf("rounds left %d after %d, want %d (max_repetitions 50; 10 min of budget holds more)", left, end.Rounds, 50-end.Rounds)
	}
	for _, c := range end.Last.Undecided() {
		if m := c.Verdict.MoreRounds; m > 0 && m <= left {
			t.Errorf("%s: estimated %d more rounds, within the %d left, yet the study stopped", c.Name(), m, left)
		}
	}
	testenv.Says(t, "the end lines", strings.Join(end.Lines(10*time.Minute), "\n"),
		fmt.Sprintf("stopped after %d rounds: no undecided cell would likely be decided in the rounds --max-reps leaves", end.Rounds),
		"2 of 2 cells undecided",
		"noise: CV ")
}

// TestRoundsLeftCountsTheBudget: the rounds the deadline holds at the
// measured round time, and never more than max_repetitions allow.
func TestRoundsLeftCountsTheBudget(t *testing.T) {
	now := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	e := AdaptiveEnd{Rounds: 4, RoundTime: time.Minute}
	for _, tc := range []struct {
		max      int
		deadline time.Duration // from now; 0: no budget
		want     int
	}{
		{10, 0, 6},
		{10, 150 * time.Second, 2},
		{5, time.Hour, 1},
		{10, 30 * time.Second, 0},
		{3, 0, 0},
	} {
		stop := Stopping{Now: clock}
		if tc.deadline > 0 {
			stop.Deadline = now.Add(tc.deadline)
		}
		if got := e.RoundsLeft(tc.max, stop); got != tc.want {
			t.Errorf("max %d, deadline in %s: %d rounds left, want %d", tc.max, tc.deadline, got, tc.want)
		}
	}
}

// TestDecisionsOfJudgesWithTheSharedRule: each cell's verdict is
// stats.Decide's on the stored values, a cell without its baseline is
// undecided, and secondary metrics and monitors are not judged.
func TestDecisionsOfJudgesWithTheSharedRule(t *testing.T) {
	s := validSpec(t, "decide.yaml", adaptiveSpec("5", "50"))
	runs, err := s.Plan(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var samples []store.Sample
	for i := range runs {
		runs[i].ID, runs[i].Status = int64(i+1), store.RunOK
		r := runs[i]
		v := 1000 + float64(r.Rep%2) // tight: no difference beyond ±5 %
		if r.Env == "docker-host" && r.Levels["threads"] == "2" {
			v = 700 + float64(r.Rep%2) // a 30 % cost
		}
		samples = append(samples, store.Sample{RunID: r.ID, Metric: "rate", Value: v},
			store.Sample{RunID: r.ID, Metric: "mon.cpu_pct", Value: float64(i % 7)})
	}
	d := result.Decide(s.Layout(), runs, samples, false)
	if !d.Done || len(d.Cells) != 2 {
		t.Fatalf("done %v, %d cells: want both judged and decided", d.Done, len(d.Cells))
	}
	want := map[string]stats.Decision{"test.a threads=1 rate @ docker-host": stats.NoDifference, "test.a threads=2 rate @ docker-host": stats.Costs}
	for _, c := range d.Cells {
		if c.Verdict.Decision != want[c.Name()] {
			t.Errorf("%s: %v, want %v", c.Name(), c.Verdict.Decision, want[c.Name()])
		}
	}
	// Without the baseline's figures of threads=2, that cell is undecided.
	var kept []store.Sample
	for _, smp := range samples {
		r := runs[smp.RunID-1]
		if !(r.Env == "native" && r.Levels["threads"] == "2") {
			kept = append(kept, smp)
		}
	}
	d = result.Decide(s.Layout(), runs, kept, false)
	if d.Done || len(d.Undecided()) != 1 || !strings.Contains(d.Summary(), "undecided: test.a threads=2 rate @ docker-host (no interval)") {
		t.Errorf("without a baseline: done %v, summary %q", d.Done, d.Summary())
	}
}

// TestDecisionsPairedTakesOutRoundDrift: rounds that drift together
// (each round's load moves both environments by up to 20 %) hide a 3 %
// cost from the unpaired interval; paired by round, the drift drops out
// and the cost is decided. The pairs follow the rounds, not the order of
// the runs.
func TestDecisionsPairedTakesOutRoundDrift(t *testing.T) {
	s := validSpec(t, "decide.yaml", adaptiveSpec("2", "50"))
	s.Repetitions = 6
	runs, err := s.Plan(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	drift := []float64{1.0, 0.8, 1.2, 0.9, 1.1, 0.85}
	var samples []store.Sample
	for i := range runs {
		runs[i].ID, runs[i].Status = int64(i+1), store.RunOK
		r := runs[i]
		v := 1000 * drift[r.Rep]
		if r.Env == "docker-host" {
			v *= 0.97 + 0.001*float64(i%3) // a 3 % cost, a little noise of its own
		}
		samples = append(samples, store.Sample{RunID: r.ID, Metric: "rate", Value: v})
	}
	unpaired, paired := result.Decide(s.Layout(), runs, samples, false), result.Decide(s.Layout(), runs, samples, true)
	for i, c := range paired.Cells {
		if u := unpaired.Cells[i]; u.Verdict.Decision != stats.Undecided {
			t.Errorf("%s unpaired: %v %+.1f%% [%+.1f, %+.1f], want undecided under the drift", u.Name(), u.Verdict.Decision, u.Verdict.Pct, u.Verdict.LoPct, u.Verdict.HiPct)
		}
		if v := c.Verdict; v.Decision != stats.Costs || v.N != 6 || v.Pct > -2.5 || v.Pct < -3.5 {
			t.Errorf("%s paired: %v %+.1f%% [%+.1f, %+.1f] over %d pairs, want the 3 %% cost decided over 6", c.Name(), v.Decision, v.Pct, v.LoPct, v.HiPct, v.N)
		}
	}
}

// TestBudgetInAStudyFile: budget: makes a study adaptive with the default
// margin and most rounds, is stored with the spec, and a count asked on
// the command line (--reps 3) ends it; a budget too short is refused with
// its line.
func TestBudgetInAStudyFile(t *testing.T) {
	const yaml = "name: b\nrepetitions: 3\nbudget: 8m\nenvs: [native, docker-host]\nworkloads: [test.a]\n"
	s := validSpec(t, "b.yaml", yaml)
	if s.Budget != rounds.Budget(8*time.Minute) || s.Adaptive == nil || s.Adaptive.PrecisionPct != DefaultPrecisionPct || s.Adaptive.MaxRepetitions != DefaultMaxReps {
		t.Errorf("budget %s, adaptive %+v: want 8m, ±%g%%, at most %d rounds", s.Budget, s.Adaptive, DefaultPrecisionPct, DefaultMaxReps)
	}
	back, err := ParseSpec("stored", []byte(s.YAML()))
	if err != nil || back.Budget != s.Budget {
		t.Errorf("stored spec reads back with budget %v (%v):\n%s", back.Budget, err, s.YAML())
	}
	if !strings.Contains(s.RepetitionsLine(), "within 8m0s") {
		t.Errorf("repetitions line %q does not name the budget", s.RepetitionsLine())
	}
	fixed, err := ParseSpec("b.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	Overrides{Repetitions: 3, Warmup: -1}.Apply(fixed)
	if fixed.Normalize(testEnvs); fixed.Budget != 0 || fixed.Adaptive != nil {
		t.Errorf("--reps 3 leaves budget %s, adaptive %+v: want a fixed count", fixed.Budget, fixed.Adaptive)
	}
	_, err = ParseSpec("b.yaml", []byte(strings.Replace(yaml, "8m", "8s", 1)))
	if err == nil || !strings.Contains(err.Error(), "budget: want a duration of at least 30s") {
		t.Errorf("budget: 8s: %v", err)
	}
}

// TestDecisionsCompareACellInItsOwnRounds: a cell that focused rounds
// left out after round 2 is judged against its baseline's runs of rounds
// 1 and 2, however the baseline's later runs drifted.
func TestDecisionsCompareACellInItsOwnRounds(t *testing.T) {
	s := validSpec(t, "decide.yaml", adaptiveSpec("5", "50"))
	more := *s
	more.Repetitions = 4
	plan, err := more.Plan(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var runs []store.Run
	var samples []store.Sample
	for _, r := range plan {
		left := r.Levels["threads"] == "2" && r.Env == "docker-host" && r.Rep >= 2
		if r.Warmup || left {
			continue
		}
		r.ID, r.Status = int64(len(runs)+1), store.RunOK
		runs = append(runs, r)
		v := 1000 + float64(r.Rep%2)
		if r.Levels["threads"] == "2" && r.Rep >= 2 {
			v = 500 + float64(r.Rep%2) // the baseline's later rounds met another host
		}
		samples = append(samples, store.Sample{RunID: r.ID, Metric: "rate", Value: v})
	}
	d := result.Decide(s.Layout(), runs, samples, false)
	for _, c := range d.Cells {
		if c.Verdict.Decision != stats.NoDifference || math.Abs(c.Verdict.Pct) > 1 {
			t.Errorf("%s: %v %+.1f%%, want no difference: each cell against its baseline's runs of its own rounds", c.Name(), c.Verdict.Decision, c.Verdict.Pct)
		}
	}
	if got, _ := result.InRoundsWith([]float64{1, 2, 3}, []int{0, 1, 2}, map[int]bool{0: true, 2: true}); !slices.Equal(got, []float64{1, 3}) {
		t.Errorf("InRounds: %v, want [1 3]", got)
	}
}

// TestEndLinesGiveTheStudysAnswer: the end lines count the firm verdicts
// and the cells that lean to one, and list an undecided cell with its
// noise and its lean.
func TestEndLinesGiveTheStudysAnswer(t *testing.T) {
	clear := stats.OverheadResult{Level: 0.95, Pct: 30, LoPct: 20, HiPct: 40, DF: 8, Significant: true}
	near := stats.OverheadResult{Level: 0.95, Pct: 6, LoPct: 3, HiPct: 9, DF: 8, Significant: true}
	cells := []result.CellDecision{
		{Row: "cpu.prime", Label: "events/s", Env: "docker-bridge", Verdict: stats.DecideFirm(clear, 9, 2), CVPct: 2, BaselineCVPct: 2},
		{Row: "cpu.prime", Label: "events/s", Env: "docker-host", Verdict: stats.DecideFirm(near, 9, 2), CVPct: 5, BaselineCVPct: 2},
	}
	e := AdaptiveEnd{Rounds: 9, Stopped: StoppedMax, Last: result.Decisions{MarginPct: 2, Cells: cells}}
	lines := strings.Join(e.Lines(0), "\n")
	testenv.Says(t, "the end lines", lines,
		"the answer, as the report gives it: 1 of 2 cells decided (1 cost, 0 no difference beyond ±2%); 1 more lean (1 to a cost, 0 to no difference), not firm",
		"1 of 2 cells undecided",
		"cpu.prime events/s @ docker-host: +6.0% [+3.0, +9.0], leans to a cost, not firm; noise: CV 5%")
	if strings.Contains(lines, "@ docker-bridge") {
		t.Errorf("the end lines list the decided cell as undecided:\n%s", lines)
	}
}

// RoundsLeft is how many more rounds the study may add: up to
// max_repetitions and, with a budget, as many of RoundTime as fit before
// its deadline (focus asks it of a shorter round too).
func (e AdaptiveEnd) RoundsLeft(maxRounds int, stop Stopping) int {
	return e.roundsLeftAt(e.RoundTime, maxRounds, stop)
}
