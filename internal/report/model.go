package report

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

// Schema names the JSON report format.
const Schema = "boxtax.report/v1"

// Report is everything the formats render; its JSON form is boxtax.report/v1.
type Report struct {
	Schema   string    `json:"schema"`
	Study    StudyInfo `json:"study"`
	Cells    []Cell    `json:"cells"`
	Runs     RunCounts `json:"runs"`
	Failures []Failure `json:"failures"`
	// Disturbed are the measured runs the monitors saw on a disturbed host,
	// each with why (store.RunDisturbed): left out of the verdicts.
	Disturbed []Failure `json:"disturbed_runs,omitempty"`
	// Warnings are the things a reader must know to trust the numbers,
	// each cause once (WarningGroups' texts).
	Warnings []string `json:"warnings"`
	// WarningGroups are Warnings with their kind and the cells each names.
	WarningGroups []WarningGroup `json:"warning_groups"`
	// Effects holds the effect sizes of an analysis of variance when one was
	// run (see analyze); absent until then.
	Effects []Effect `json:"effects,omitempty"`
	// Gate is the outcome of the --max-overhead rules when some were given
	// (a *gate.Result: package gate judges reports); absent otherwise.
	Gate any `json:"gate,omitempty"`
	// Attributions split a container's overhead into its mechanisms when
	// the study ran variants of it (docker-bridge+seccomp=unconfined...);
	// see attribution.go.
	Attributions []Attribution `json:"attributions,omitempty"`
	// Verdicts answer, for every environment but the baseline and every
	// primary metric, whether it costs, gains, shows no difference beyond
	// ±margin_pct or is undecided; ordered by decision, then by the size
	// of the cost (verdict.go).
	Verdicts []Verdict `json:"verdicts"`
	// BaselineMoves are the baseline cells whose mean lies outside what
	// earlier studies of the same host measured (moves.go); absent when
	// none was compared or none moved.
	BaselineMoves []BaselineMove `json:"baseline_moves,omitempty"`

	samples []RunSample             // for the tidy CSV
	factors []string                // non-env factor names, sorted
	envs    []string                // environments in spec order, baseline first
	runs    map[int64]store.Run     // by id, for attaching series
	series  map[SeriesKey]*Quantile // distributions of long per-iteration records
	first   time.Time               // when the first run started
	last    time.Time               // when the last run ended
	warns   []Warning               // Warnings with their kinds
	papers  []PaperComparison       // published tables to show (ShowPapers)
	host    hostinfo.Host           // Study.Host, read once for the formats
	margin  float64                 // the verdicts' equivalence margin, percent
	layout  Layout                  // what Build was given from the spec
}

// ShowPapers makes the formats that show published values (html) show
// these comparisons, every row of them; package report/papers makes them
// (papers.Shared: the tables that share a measured metric with the study).
func (r *Report) ShowPapers(cmps []PaperComparison) {
	r.papers = append([]PaperComparison{}, cmps...)
}

// Warning is one thing a reader must know about one cell, with its kind;
// WarningGroups say each cause once, and the HTML report lists them all.
type Warning struct {
	Kind    string // storage, note, busy, noisy, outlier
	Text    string
	Subject string // the cell: "workload @ env" (notes, busy), "row @ env label" (noisy, outliers)
	Message string // for notes: what the workload said
	Runs    int    // busy: the runs that started on a busy host; outliers: the outlier runs
}

// Warning kinds.
const (
	WarnStorage = "storage" // a disk workload's file system lets memory serve its I/O (e.g. O_DIRECT on FUSE)
	WarnNote    = "note"    // a workload said its numbers need care
	WarnBusy    = "busy"    // runs started while another program kept the CPU busy
	WarnNoisy   = "noisy"   // runs of a cell spread widely
	WarnOutlier = "outlier" // single runs far from the others
)

func (r *Report) addWarnings(ws []Warning) {
	r.warns = append(r.warns, ws...)
}

// StudyInfo describes the study a report is about.
type StudyInfo struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Status    string          `json:"status"`
	Seed      int64           `json:"seed"`
	Baseline  string          `json:"baseline"`
	CreatedAt time.Time       `json:"created_at"`
	Host      json.RawMessage `json:"host"`
	Spec      string          `json:"spec_yaml"`
	// Repetitions compares this study's repetitions with the paper's.
	Repetitions Repetitions `json:"repetitions"`
	// Interval says which interval the cells' overhead_ci95 is: Welch-type
	// unpaired Fieller, or paired by round (report --paired).
	Interval string `json:"interval"`
	// Images are the images an image study ran, per environment, and how
	// (images.go); absent for other studies.
	Images []ImageRun `json:"images,omitempty"`
}

// Cell is one metric of one cell with its statistics and, for every level
// but the baseline, its overhead against the baseline.
type Cell struct {
	Workload       string            `json:"workload"`
	Env            string            `json:"env"`
	Levels         map[string]string `json:"levels"`
	Metric         string            `json:"metric"`
	Unit           string            `json:"unit"`
	Label          string            `json:"label"`
	HigherIsBetter bool              `json:"higher_is_better"`
	N              int               `json:"n"`
	Mean           float64           `json:"mean"`
	Std            float64           `json:"std"`
	Median         float64           `json:"median"`
	Q1             float64           `json:"q1"`
	Q3             float64           `json:"q3"`
	Min            float64           `json:"min"`
	Max            float64           `json:"max"`
	Baseline       string            `json:"baseline"`     // the env level compared against
	IsBaseline     bool              `json:"is_baseline"`  // this cell is the baseline itself
	OverheadPct    *float64          `json:"overhead_pct"` // null for the baseline and when it has no data
	OverheadCI95   []*float64        `json:"overhead_ci95"`
	OverheadNote   string            `json:"overhead_note,omitempty"` // why the interval is missing
	PValue         *float64          `json:"p_value,omitempty"`       // Welch's t-test against the baseline
	Significant    bool              `json:"significant"`             // the interval excludes 0
	// PrecisionReached says, in an adaptive study (--reps auto), whether the
	// overhead's 95 % interval is within the target; null elsewhere.
	PrecisionReached *bool     `json:"precision_reached,omitempty"`
	Values           []float64 `json:"values"` // one per measured run, in run order

	// DriftFactor is how many times the variance of the mean the rounds
	// show exceeds what the runs' spread says (stats.DriftFactor): the
	// interval's squared standard errors were multiplied by it. Absent at 1
	// and for the baseline.
	DriftFactor *float64 `json:"drift_factor,omitempty"`
	// Halves are the overheads over the first and the second half of the
	// cell's rounds; apart when their intervals do not overlap, and then
	// the verdict is undecided (the host changed). Absent with fewer than
	// 4 rounds and for the baseline.
	Halves *Halves `json:"halves,omitempty"`

	// Paired is the overhead estimated from the rounds (blocks) in which
	// both this cell and its baseline ran: drift between rounds drops out.
	// Null when fewer than 2 rounds pair up, and for the baseline.
	Paired *PairedResult `json:"paired,omitempty"`

	// Secondary metrics (host monitors, a workload's secondary figures)
	// stay out of the overhead table and the gate's wildcards.
	Secondary bool `json:"-"`
	// Group is the workload and non-env levels: one table row group.
	Group string `json:"-"`

	reps     []int // the round of each value, parallel to Values
	absolute bool  // shown as mean (std) in every environment
	// pairedInterval says that the overhead's interval is the paired
	// one: what the verdict's rounds count.
	pairedInterval bool
	// df is the degrees of freedom of the overhead's interval (0 when
	// read from a stored document): the verdict's estimate of further
	// rounds counts the t quantile's narrowing with it.
	df float64
	// over is the cell against its baseline (nil for the baseline itself,
	// without the baseline's data, and for cells computed elsewhere);
	// with stop, an undecided verdict's further rounds are the stopping
	// rule's (result.Overhead.Answer): in an adaptive study, unpaired.
	over *result.Overhead
	stop bool
	// settle, with stop, is the cell's overhead at the first look before
	// its last round that decided it at a margin, and whether one did
	// (result.Cells.Settled); nil: no looks to read.
	settle func(marginPct float64) (result.Overhead, bool)
}

// Halves are a cell's overhead over the first and the second half of its
// rounds, each with its 95 % interval.
type Halves struct {
	FirstPct   float64    `json:"first_pct"`
	FirstCI95  []*float64 `json:"first_ci95"`
	SecondPct  float64    `json:"second_pct"`
	SecondCI95 []*float64 `json:"second_ci95"`
	Apart      bool       `json:"apart"` // the intervals do not overlap: the host changed during the study
}

// halvesOf is r's halves, nil when either has no interval.
func halvesOf(r stats.RoundsResult) *Halves {
	if math.IsNaN(r.First.LoPct) || math.IsNaN(r.Second.LoPct) || math.IsNaN(r.First.Pct) || math.IsNaN(r.Second.Pct) {
		return nil
	}
	return &Halves{FirstPct: r.First.Pct, FirstCI95: []*float64{finite(r.First.LoPct), finite(r.First.HiPct)},
		SecondPct: r.Second.Pct, SecondCI95: []*float64{finite(r.Second.LoPct), finite(r.Second.HiPct)}, Apart: r.HalvesApart}
}

// RunCounts summarises a study's runs.
type RunCounts struct {
	Total   int `json:"total"`
	OK      int `json:"ok"`
	Failed  int `json:"failed"`
	Pending int `json:"pending"`
	Warmup  int `json:"warmup"`
	// Disturbed are the measured runs the monitors saw on a disturbed
	// host (store.RunDisturbed), left out of the verdicts.
	Disturbed int `json:"disturbed,omitempty"`
}

// Failure is a run that failed, with its reason.
type Failure struct {
	Seq      int    `json:"seq"`
	Workload string `json:"workload"`
	Env      string `json:"env"`
	Warmup   bool   `json:"warmup"`
	Reason   string `json:"reason"`
}

// RunSample is one stored sample with its run: a row of the tidy CSV.
type RunSample struct {
	Run    store.Run
	Sample store.Sample
}

// Layout is what a report takes from the study's spec: the baseline and the
// order of environments and workloads.
type Layout struct {
	Baseline  string
	Envs      []string
	Workloads []string
	// Repetitions is what the spec asked for and what the paper made; Build
	// counts the rounds actually planned.
	Repetitions Repetitions
	// Paired makes the overhead's interval, p-value and stars the paired
	// ones (by round) in every cell where they exist (report --paired).
	Paired bool
	// Earlier is what earlier studies of the same host measured of each
	// cell: the unpaired intervals carry their spread.
	Earlier result.Earlier
}

// Build computes the report of a study from its stored runs and samples.
// Warm-up runs and failed runs do not enter the statistics.
func Build(st store.Study, lay Layout, runs []store.Run, samples []store.Sample) *Report {
	baseline := lay.Baseline
	r := &Report{Schema: Schema, Failures: []Failure{}, Cells: []Cell{}, Warnings: []string{}, host: hostinfo.Parse(st.HostJSON), layout: lay}
	r.addWarnings(warnings(runs))
	r.addWarnings(probeCost(runs, r.host.CPUs))
	r.Study = StudyInfo{ID: st.ID, Name: st.Name, Status: st.Status, Seed: st.Seed, Baseline: baseline,
		CreatedAt: st.CreatedAt.UTC(), Host: json.RawMessage(orEmpty(st.HostJSON)), Spec: st.SpecYAML,
		Repetitions: lay.Repetitions}
	r.Study.Images = imageRuns(runs)
	r.Study.Repetitions.Rounds = result.MeasuredRounds(runs)
	if fewest := result.FewestRounds(result.PlannedRounds(runs)); fewest < r.Study.Repetitions.Rounds {
		r.Study.Repetitions.Fewest = fewest
	}
	byID := map[int64]store.Run{}
	for _, run := range runs {
		byID[run.ID] = run
		if !run.Started.IsZero() && (r.first.IsZero() || run.Started.Before(r.first)) {
			r.first = run.Started
		}
		if run.Ended.After(r.last) {
			r.last = run.Ended
		}
		r.Runs.Total++
		switch {
		case run.Warmup:
			r.Runs.Warmup++
		case run.Status == store.RunOK:
			r.Runs.OK++
		case run.Status == store.RunPending:
			r.Runs.Pending++
		}
		if run.Status == store.RunDisturbed && !run.Warmup {
			r.Runs.Disturbed++
			r.Disturbed = append(r.Disturbed, Failure{Seq: run.Seq, Workload: run.Workload, Env: run.Env, Reason: run.Reason})
		}
		if run.Status == store.RunFailed {
			r.Runs.Failed++
			r.Failures = append(r.Failures, Failure{Seq: run.Seq, Workload: run.Workload, Env: run.Env, Warmup: run.Warmup, Reason: run.Reason})
		}
	}
	r.factors = result.Factors(runs)
	r.envs = orderEnvs(lay.Envs, baseline, runs)
	r.runs = byID
	for _, smp := range samples {
		if run, ok := byID[smp.RunID]; ok {
			r.samples = append(r.samples, RunSample{run, smp})
		}
	}
	cells := result.Gather(runs, samples)
	for _, rc := range cells.List {
		c := newCell(rc, baseline)
		if base, ok := cells.Baseline(rc, baseline); ok && !c.IsBaseline {
			earlier := lay.Earlier.Of(rc)
			c.compare(cells.Against(rc, base).WithStudies(earlier), lay)
			if c.stop {
				c.settle = func(m float64) (result.Overhead, bool) {
					return cells.Settled(rc, base, earlier, m, lay.Repetitions.Spec)
				}
			}
		} else if !c.IsBaseline {
			c.OverheadNote = "no baseline data"
		}
		r.Cells = append(r.Cells, *c)
	}
	r.Study.Interval = intervalUnpaired
	if lay.Paired {
		r.Study.Interval = intervalPaired
	}
	r.markPrecision()
	r.sortCells(lay.Workloads)
	r.Decide(0)
	r.addWarnings(noisyCells(r.Cells, r.factors))
	r.addWarnings(outliers(r.Cells, r.factors))
	r.groupWarnings()
	r.warnDisturbed()
	r.Effects = analyze(r)
	r.buildAttributions()
	r.adviseVerdicts() // the attributions came after the verdicts
	return r
}

// newCell is the report's cell of rc, with its statistics.
func newCell(rc *result.Cell, baseline string) *Cell {
	run := rc.Run
	c := &Cell{Workload: run.Workload, Env: run.Env, Levels: run.Levels, Metric: rc.Metric, Unit: rc.Unit, Label: rc.Label,
		HigherIsBetter: rc.HigherIsBetter, Secondary: rc.Secondary, absolute: rc.Absolute, Values: rc.Values, reps: rc.Reps,
		Baseline: baseline, IsBaseline: run.Env == baseline, OverheadCI95: []*float64{nil, nil}, Group: groupKey(run.CellKey)}
	s := stats.Describe(c.Values)
	c.N, c.Mean, c.Std, c.Median, c.Q1, c.Q3, c.Min, c.Max = s.N, s.Mean, s.Std, s.Median, s.Q1, s.Q3, s.Min, s.Max
	return c
}

// compare sets c's overhead against its baseline from o: the interval
// across rounds, or the paired one when lay asks for it.
func (c *Cell) compare(o result.Overhead, lay Layout) {
	across := o.Across.Overhead
	c.over, c.df = &o, across.DF
	if o.Across.DriftFactor > 1 {
		c.DriftFactor = finite(o.Across.DriftFactor)
	}
	c.Halves = halvesOf(o.Across)
	c.OverheadPct = finite(across.Pct)
	c.OverheadCI95 = []*float64{finite(across.LoPct), finite(across.HiPct)}
	c.OverheadNote = across.Reason
	c.PValue = finite(across.PValue)
	c.Significant = across.Significant
	if p := o.Paired; p != nil {
		c.Paired = &PairedResult{Pairs: o.Pairs, Pct: finite(p.Pct), CI95: []*float64{finite(p.LoPct), finite(p.HiPct)},
			PValue: finite(p.PValue), Significant: p.Significant, Note: p.Reason, df: p.DF}
		if lay.Paired {
			c.usePaired()
		}
	}
	c.stop = lay.Repetitions.PrecisionPct > 0 && !c.pairedInterval
}

// groupKey drops the env from a cell key: the cells of one table row.
func groupKey(cellKey string) string {
	var keep []string
	for _, p := range strings.Split(cellKey, "|") {
		if !strings.HasPrefix(p, "env=") {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "|")
}

func orderEnvs(spec []string, baseline string, runs []store.Run) []string {
	seen := map[string]bool{}
	out := []string{}
	add := func(e string) {
		if e != "" && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	add(baseline)
	for _, e := range spec {
		add(e)
	}
	for _, run := range runs {
		add(run.Env)
	}
	return out
}

// sortCells orders cells by workload (spec order), then the other levels,
// then the metric (as the workload declares them), then the env order.
func (r *Report) sortCells(workloads []string) {
	wlRank, envRank := map[string]int{}, map[string]int{}
	for i, w := range workloads {
		wlRank[w] = i + 1
	}
	for i, e := range r.envs {
		envRank[e] = i
	}
	metricRank := func(c Cell) int {
		if wl, err := workload.Lookup(c.Workload); err == nil {
			for i, m := range wl.Info().Metrics {
				if m.Name == c.Metric {
					return i
				}
			}
		}
		return 1 << 20
	}
	rank := func(w string) int {
		if n, ok := wlRank[w]; ok {
			return n
		}
		return len(wlRank) + 1
	}
	sort.SliceStable(r.Cells, func(i, j int) bool {
		a, b := r.Cells[i], r.Cells[j]
		switch {
		case rank(a.Workload) != rank(b.Workload):
			return rank(a.Workload) < rank(b.Workload)
		case a.Workload != b.Workload:
			return a.Workload < b.Workload
		case a.Group != b.Group:
			return NaturalLess(a.Group, b.Group)
		case a.Metric != b.Metric:
			return metricRank(a) < metricRank(b)
		}
		return envRank[a.Env] < envRank[b.Env]
	})
}

// NaturalLess compares strings with digit runs compared as numbers, so
// threads=2 sorts before threads=10.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da != "" && db != "" {
			ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

func orEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}
