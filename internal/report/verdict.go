package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
)

// The verdict is the report's answer: for every environment against the
// baseline and every primary metric, what the overhead's 95 % interval
// lets one say (stats.Decide): a cost, a gain, no difference beyond ±p %,
// or undecided with the further rounds that would likely decide it. Design
// note 013 gives the rules.

// Verdict decisions as the JSON names them.
const (
	VerdictCosts        = "costs"         // the interval excludes 0, in the bad direction
	VerdictGains        = "gains"         // the interval excludes 0, in the good direction
	VerdictNoDifference = "no_difference" // the whole interval lies inside ±margin
	VerdictUndecided    = "undecided"     // neither: more rounds, or a quieter host
)

// Verdict is the answer for one cell: an environment's primary metric
// against the baseline.
type Verdict struct {
	CellName
	Decision     string     `json:"decision"`     // costs | gains | no_difference | undecided
	OverheadPct  *float64   `json:"overhead_pct"` // the cell's overhead_pct
	OverheadCI95 []*float64 `json:"overhead_ci95"`
	// CostPct is the overhead in the bad direction (-overhead_pct when
	// higher is better), as the gate has it; CostCI95 its interval.
	CostPct   *float64   `json:"cost_pct"`
	CostCI95  []*float64 `json:"cost_ci95"`
	MarginPct float64    `json:"margin_pct"` // p of "no difference beyond ±p %"
	N         int        `json:"n"`          // rounds behind the interval: the smaller sample, or the pairs
	// MoreRounds, when undecided, is about how many further rounds would
	// likely decide it (stats.Verdict.MoreRounds); absent when decided or
	// when no estimate can be made.
	MoreRounds *int `json:"more_rounds,omitempty"`
	// WithinPct is the smallest margin the interval lies within,
	// max(|lo|, |hi|) of overhead_ci95 (stats.Verdict.WithinPct): what an
	// undecided cell does show when ±MarginPct is out of reach; absent
	// without an interval.
	WithinPct *float64 `json:"within_pct,omitempty"`
	// Direction is what the difference means in words: "slower", "less
	// throughput", "more memory"; empty when no difference is shown.
	Direction string `json:"direction,omitempty"`
	Text      string `json:"text"` // the verdict in one phrase, as the formats print it
	// Advice, for a cost, is the option measured in the same study that
	// removes most of it (Advise), also said at the end of Text; absent
	// when the study measured no option that does.
	Advice *Advice `json:"advice,omitempty"`
	// HostChanged says that the first and the second half of the cell's
	// rounds lie apart (Cell.Halves): the cell is undecided, and Text says
	// so with both halves.
	HostChanged bool `json:"host_changed,omitempty"`
	// Leans, for a cell an adaptive study leaves undecided, is the
	// decision (costs, gains or no_difference) its 95 % interval alone
	// would give, not yet firm: a study run again would likely not give it
	// (stats.DecideFirm); absent otherwise. Text says it.
	Leans string `json:"leans,omitempty"`
	// Firm says the verdict is an adaptive study's firm one
	// (stats.DecideFirm): a cost only beyond ±margin, no difference within
	// it, each by the 95 % interval widened for a study run again; the
	// interval shown is the 95 % one.
	Firm bool `json:"firm,omitempty"`
	// BetweenStudies, where earlier studies of the same host measured the
	// cell, is the spread of its overhead between them and this one
	// beyond their own errors, which the interval carries
	// (result.Overhead.WithStudies); absent without earlier studies.
	BetweenStudies *BetweenStudies `json:"between_studies,omitempty"`
	// DecidedAfter, in an adaptive study, is the rounds at the look that
	// decided the cell when later rounds ran for the other metrics of its
	// runs: the decision, interval and n are that look's
	// (result.Cells.Settled); absent when its last look decided it.
	DecidedAfter int `json:"decided_after,omitempty"`
}

// BetweenStudies is the spread of a cell's overhead between the studies
// of one host: how many studies, and the standard deviation between them
// in points beyond what each study's own error explains (0: they agree).
type BetweenStudies struct {
	Studies int     `json:"studies"`
	SDPct   float64 `json:"sd_pct"`
}

// CellName is what names the cell a verdict is on, in a report or a
// history.
type CellName struct {
	Workload       string            `json:"workload"`
	Env            string            `json:"env"`
	Levels         map[string]string `json:"levels"`
	Metric         string            `json:"metric"`
	Label          string            `json:"label"`
	HigherIsBetter bool              `json:"higher_is_better"`
	Row            string            `json:"-"` // the table's row name: workload and non-env levels
}

// MarginPct is the margin the verdicts were decided with.
func (r *Report) MarginPct() float64 { return r.margin }

// Decide (re)computes the verdicts with the equivalence margin marginPct
// (percent, > 0; 0: the study's adaptive precision, else
// result.DefaultMarginPct), as report --precision asks.
func (r *Report) Decide(marginPct float64) {
	if marginPct <= 0 {
		marginPct = r.Study.Repetitions.PrecisionPct
	}
	if marginPct <= 0 {
		marginPct = result.DefaultMarginPct
	}
	r.margin = marginPct
	r.Verdicts = []Verdict{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.IsBaseline || c.Secondary || c.absolute {
			continue // an absolute figure (a start-up time) has no ratio to speak of
		}
		r.Verdicts = append(r.Verdicts, verdictOf(c, RowName(c, r.factors), marginPct))
	}
	sortVerdicts(r.Verdicts)
	r.adviseVerdicts()
}

// adviseVerdicts adds to each cost's verdict the option that removes most
// of it, where the study measured one (Advise): "...; storage=bind removes
// 277.5 points of it [198.1, 356.9]".
func (r *Report) adviseVerdicts() {
	advice := Advise(r)
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		if v.Decision != VerdictCosts || v.Advice != nil {
			continue
		}
		for j := range advice {
			a := advice[j]
			if a.Workload == v.Workload && a.Env == v.Env && a.Metric == v.Metric && sameLevels(v.Levels, a.Levels) {
				v.Advice = &a
				v.Text += fmt.Sprintf("; %s removes %s points of it [%s, %s]", a.Option, fmtSize(a.RemovesPts), fmtSize(a.CI95[0]), fmtSize(a.CI95[1]))
				break
			}
		}
	}
}

// verdictOf decides one cell.
func verdictOf(c *Cell, row string, marginPct float64) Verdict {
	if c.settle != nil {
		if o, earlier := c.settle(marginPct); earlier {
			return settledVerdict(c, o, row, marginPct)
		}
	}
	v := Verdict{CellName: CellName{Workload: c.Workload, Env: c.Env, Levels: c.Levels, Metric: c.Metric, Label: c.Label, HigherIsBetter: c.HigherIsBetter, Row: row},
		OverheadPct: c.OverheadPct, OverheadCI95: c.OverheadCI95, CostCI95: []*float64{nil, nil}, MarginPct: marginPct, N: c.rounds()}
	nan := math.NaN()
	o := stats.OverheadResult{Level: 0.95, Pct: nan, LoPct: nan, HiPct: nan, DF: c.df, Significant: c.Significant}
	if c.OverheadPct != nil {
		o.Pct = *c.OverheadPct
		cost := *c.OverheadPct
		if c.HigherIsBetter {
			cost = -cost
		}
		v.CostPct = &cost
	}
	if lo, hi, ok := ends(c.OverheadCI95); ok {
		o.LoPct, o.HiPct = lo, hi
		if c.HigherIsBetter {
			lo, hi = -hi, -lo
		}
		v.CostCI95 = []*float64{&lo, &hi}
	}
	var d stats.Verdict
	switch {
	case c.stop:
		d = c.over.Answer(marginPct) // the adaptive study's answer, as its run's end lines give it
		v.Firm = true
	case !c.pairedInterval && c.over != nil:
		d = stats.Decide(o, v.N, marginPct).WithHalves(c.over.Across)
	default:
		d = stats.Decide(o, v.N, marginPct)
	}
	v.WithinPct = finite(d.WithinPct)
	v.HostChanged = d.HostChanged
	worse, better := directionWords(c)
	v.Decision, v.Direction = decisionWords(d.Decision, v.CostPct, worse, better)
	if v.Decision == VerdictUndecided && d.MoreRounds > 0 && !d.HostChanged {
		more := d.MoreRounds
		v.MoreRounds = &more
	}
	v.Text = v.phrase(c.OverheadNote)
	if lean, dir := decisionWords(d.Leans, v.CostPct, worse, better); v.Decision == VerdictUndecided && lean != VerdictUndecided && v.CostPct != nil {
		v.Leans = lean
		v.Text = v.leaning(dir)
	}
	if d.HostChanged {
		v.Text = "undecided: " + d.HostChangedText()
	}
	if o := c.over; o != nil && o.Studies > 0 && !c.pairedInterval {
		v.BetweenStudies = &BetweenStudies{Studies: o.Studies, SDPct: o.BetweenSD}
		if o.BetweenSD > 0 {
			v.Text += fmt.Sprintf("; the interval carries the spread between %d studies of this host (%s points)", o.Studies, fmtSize(o.BetweenSD))
		}
	}
	return v
}

// settledVerdict is the verdict of an adaptive study's cell decided at a
// look before its last round (result.Cells.Settled): its decision and
// interval are that look's, and its text says so ("...; decided after 5
// rounds, the 5 after them measured for the run's other metrics").
func settledVerdict(c *Cell, o result.Overhead, row string, marginPct float64) Verdict {
	at := *c
	across := o.Across.Overhead
	at.settle, at.over, at.df, at.N = nil, &o, across.DF, o.N
	at.OverheadPct, at.OverheadCI95 = finite(across.Pct), []*float64{finite(across.LoPct), finite(across.HiPct)}
	at.OverheadNote, at.Significant = across.Reason, across.Significant
	v := verdictOf(&at, row, marginPct)
	v.DecidedAfter = o.N
	v.Text += fmt.Sprintf("; decided after %d rounds, the %d after them measured for the run's other metrics", o.N, c.rounds()-o.N)
	return v
}

// rounds is the number of values behind c's interval: the pairs when the
// interval is the paired one, else the smaller of c's and its baseline's
// runs.
func (c *Cell) rounds() int {
	if c.pairedInterval {
		return c.Paired.Pairs
	}
	if c.over != nil && c.over.BaseN > 0 && c.over.BaseN < c.N {
		return c.over.BaseN
	}
	return c.N
}

// phrase is the verdict in words: "costs 12.0% [8.1, 15.9]: slower",
// "no difference beyond ±2% [-1.1%, +0.9%]", "undecided [-3.1%, +5.8%]:
// within ±5.8%, not ±2%; about 9 more round(s) would likely decide it"
// (the smallest margin the interval allows, said below 100 %); note says
// why an interval is missing or degenerate.
func (v Verdict) phrase(note string) string {
	switch v.Decision {
	case VerdictCosts, VerdictGains:
		size, lo, hi := *v.CostPct, v.CostCI95[0], v.CostCI95[1]
		if v.Decision == VerdictGains {
			size, lo, hi = -size, neg(hi), neg(lo)
		}
		return fmt.Sprintf("%s %s%% [%s, %s]: %s", v.Decision, fmtSize(size), fmtSize(*lo), fmtSize(*hi), v.Direction)
	case VerdictNoDifference:
		iv, _ := PctInterval(v.OverheadCI95)
		return fmt.Sprintf("no difference beyond ±%g%% %s", v.MarginPct, iv)
	}
	iv, ok := PctInterval(v.OverheadCI95)
	if !ok {
		if note == "" {
			note = "no overhead"
		}
		if v.MoreRounds != nil && *v.MoreRounds < stats.MaxMoreRounds {
			// An adaptive study's cell whose baseline is too noisy for an
			// interval yet (stats.Verdict.MoreRounds).
			return fmt.Sprintf("undecided: no interval (%s); about %d more round(s) would likely bound and decide it", note, *v.MoreRounds)
		}
		return "undecided: no interval (" + note + ")"
	}
	if w, ok := v.within(); ok {
		iv += fmt.Sprintf(": within ±%s%%, not ±%g%%", w, v.MarginPct)
	}
	switch {
	case v.MoreRounds == nil && note != "":
		return fmt.Sprintf("undecided %s (%s)", iv, note)
	case v.MoreRounds == nil:
		return "undecided " + iv
	case *v.MoreRounds >= stats.MaxMoreRounds:
		return fmt.Sprintf("undecided %s; more than %d further rounds at this spread: a quieter host or a larger effect would decide it", iv, stats.MaxMoreRounds)
	}
	return fmt.Sprintf("undecided %s; about %d more round(s) would likely decide it", iv, *v.MoreRounds)
}

// decisionWords are a stats decision as the report names it, with the
// direction's words for a cost (worse) or a gain (better): a difference
// is a cost where cost is above 0, else a gain.
func decisionWords(d stats.Decision, cost *float64, worse, better string) (decision, direction string) {
	switch {
	case d == stats.NoDifference:
		return VerdictNoDifference, ""
	case d != stats.Costs:
		return VerdictUndecided, ""
	case cost != nil && *cost > 0:
		return VerdictCosts, worse
	}
	return VerdictGains, better
}

// leaning is the text of an undecided verdict that leans to v.Leans, with
// its direction's words: "undecided, leans to: costs 21.0% [8.0, 37.0]:
// slower; not firm, a study run again would likely not give it; about 3
// more round(s) would likely make it firm".
func (v Verdict) leaning(direction string) string {
	l := v
	l.Decision, l.Direction, l.MoreRounds = v.Leans, direction, nil
	s := "undecided, leans to: " + l.phrase("") + "; not firm, a study run again would likely not give it"
	if v.MoreRounds != nil && *v.MoreRounds < stats.MaxMoreRounds {
		s += fmt.Sprintf("; about %d more round(s) would likely make it firm", *v.MoreRounds)
	}
	return s
}

// within is an undecided verdict's WithinPct as its text says it: below
// 100 % only, and with a second decimal where one is needed to tell it from
// the margin (±2.04 %, not ±2 %); not said when even that rounds to the
// margin.
func (v Verdict) within() (string, bool) {
	if v.WithinPct == nil || *v.WithinPct >= 100 {
		return "", false
	}
	w := *v.WithinPct
	for _, f := range []string{"%.1f", "%.2f"} {
		if s := fmt.Sprintf(f, w); s != fmt.Sprintf(f, v.MarginPct) {
			return s, true
		}
	}
	return "", false
}

// fmtSize prints a cost's size without a sign: 12.0, 0.35.
func fmtSize(p float64) string {
	if math.Abs(p) < 1 {
		return fmt.Sprintf("%.2f", p)
	}
	return fmt.Sprintf("%.1f", p)
}

func neg(p *float64) *float64 {
	v := -*p
	return &v
}

// directionWords says in words what a worse and a better value of c's
// metric mean: less or more throughput for rates, slower or faster for
// times, more or less memory for sizes; higher or lower otherwise. The
// unit decides, else the label's last word ("copy MB/s").
func directionWords(c *Cell) (worse, better string) {
	worse, better = unitWords(c.Unit, c.HigherIsBetter)
	if f := strings.Fields(c.Label); (worse == "higher" || worse == "lower") && len(f) > 0 {
		if w, b := unitWords(f[len(f)-1], c.HigherIsBetter); w != worse {
			return w, b
		}
	}
	return worse, better
}

// unitWords is directionWords for one unit.
func unitWords(u string, higherIsBetter bool) (worse, better string) {
	switch {
	case higherIsBetter && (strings.Contains(u, "/s") || strings.HasSuffix(u, "PS") || strings.HasSuffix(u, "ops")):
		return "less throughput", "more throughput"
	case higherIsBetter:
		return "lower", "higher"
	}
	switch u {
	case "s", "ms", "us", "µs", "ns", "ms/request", "min", "h":
		return "slower", "faster"
	case "B", "bytes", "KiB", "MiB", "GiB", "kB", "KB", "MB", "GB":
		return "more memory", "less memory"
	}
	return "higher", "lower"
}

// verdictRank orders the decisions: what costs first, then what is
// better, then what could not be decided, then what showed no difference.
var verdictRank = map[string]int{VerdictCosts: 0, VerdictGains: 1, VerdictUndecided: 2, VerdictNoDifference: 3}

// sortVerdicts orders verdicts by decision, then by the size of the cost
// (of the gain, of the estimate), largest first; ties keep the table's
// order.
func sortVerdicts(vs []Verdict) {
	size := func(v Verdict) float64 {
		if v.CostPct == nil {
			return -1
		}
		return math.Abs(*v.CostPct)
	}
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := vs[i], vs[j]
		if verdictRank[a.Decision] != verdictRank[b.Decision] {
			return verdictRank[a.Decision] < verdictRank[b.Decision]
		}
		return size(a) > size(b)
	})
}

// Subject names the cell of a verdict: "mem.stream copy MB/s in
// docker-bridge".
func (v Verdict) Subject() string { return fmt.Sprintf("%s %s in %s", v.Row, v.Label, v.Env) }
