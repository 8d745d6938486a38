package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/workload"
)

// StudyOptions choose what to read from stored studies.
type StudyOptions struct {
	Workload   string            // only this workload; "" for every one
	Responses  []string          // series or metrics; empty: the workload's defaults
	References map[string]string // factor -> reference level
	// RunsOnly skips the per-slice data: the series are still read, for
	// their per-run means, but not kept by slice.
	RunsOnly bool
}

// thesisResponses are the responses the thesis analysed, by workload: the
// four parts of the slice (MANOVA, Tables 5.2-5.4) and the I/O parts
// (ANOVAs, Tables 5.7-5.9).
var thesisResponses = map[string][]string{
	"rt.periodic":    {"oh1_ns", "work_ns", "oh2_ns", "sleep_ns"},
	"rt.periodic-io": {"capture_ns", "write_ns"},
}

// deadlineMetrics are summarised by scenario over runs for the thesis's
// Figs. 5.3-5.4 (the share of the slice used) and the latency percentiles.
var deadlineMetrics = []string{"slice_used_pct", "violations_pct", "latency_p50_us", "latency_p99_us", "latency_max_us"}

// studyFacts is a stored study as the datasets need it.
type studyFacts struct {
	*study.Stored
	label    string      // the device label (hostinfo.Host.Label)
	kernel   string      // rt or vanilla
	measured []store.Run // the ok, measured runs (Runs holds them all)
	byRunID  map[int64]map[string]store.Sample
}

// FromStudies reads the ok, measured runs of stored studies into datasets: for
// each workload, one per slice (when the responses are series) and one per
// run. Factors: env (the baseline level first), kernel (from each study's
// host facts: rt for PREEMPT_RT, else vanilla), and every factor of the
// studies' specs, levels in the order written.
func FromStudies(ctx context.Context, studies []*study.Stored, o StudyOptions) ([]*Dataset, error) {
	var facts []*studyFacts
	for _, s := range studies {
		f, err := readStudy(s)
		if err != nil {
			return nil, err
		}
		facts = append(facts, f)
	}
	// Factors and their levels, in order.
	env := newLevelIndex("env")
	for _, f := range facts {
		env.code(f.Spec.Baseline)
		for _, e := range f.Spec.Envs {
			env.code(e.Name)
		}
	}
	kernelLevel := kernelLevels(facts)
	kernel := newLevelIndex("kernel")
	kernel.code("vanilla")
	for _, f := range facts {
		kernel.code(kernelLevel(f))
	}
	var others []*levelIndex
	for _, f := range facts {
		for _, fac := range f.Spec.Factors {
			i := slices.IndexFunc(others, func(l *levelIndex) bool { return l.name == fac.Name })
			if i < 0 {
				others = append(others, newLevelIndex(fac.Name))
				i = len(others) - 1
			}
			for _, lv := range fac.Levels {
				others[i].code(fmt.Sprint(lv))
			}
		}
	}
	if len(kernel.levels) > 1 && kernel.levels[0] == "vanilla" && !slices.ContainsFunc(facts, func(f *studyFacts) bool { return kernelLevel(f) == "vanilla" }) {
		kernel = newLevelIndex("kernel") // no vanilla kernel after all
		for _, f := range facts {
			kernel.code(kernelLevel(f))
		}
	}
	indexes := []*levelIndex{env, kernel}
	host := newLevelIndex("host") // a factor once the studies come from two or more devices
	for _, f := range facts {
		host.code(f.label)
	}
	if len(host.levels) > 1 {
		indexes = append(indexes, host)
	}
	indexes = append(indexes, others...)
	factors := make([]stats.Factor, len(indexes))
	for i, li := range indexes {
		var err error
		if factors[i], err = li.ordered(false, o.References[li.name]); err != nil {
			return nil, err
		}
	}
	for name := range o.References {
		if !slices.ContainsFunc(indexes, func(l *levelIndex) bool { return l.name == name }) {
			return nil, fmt.Errorf("a reference level is given for %s, which is not a factor of the studies (env, kernel and the specs' factors)", name)
		}
	}
	var notes []string
	for _, f := range facts {
		notes = append(notes, fmt.Sprintf("study %d %q in %s: kernel %s (%s)%s", f.ID, f.Name, f.Store.Path(), f.Host.KernelRelease, f.Host.Preemption,
			map[bool]string{true: ", a PREEMPT_RT kernel", false: ""}[f.kernel == "rt"]))
	}
	var names []string // in the order the specs list them, those that ran
	ran := func(n string) bool {
		return slices.ContainsFunc(facts, func(f *studyFacts) bool {
			return slices.ContainsFunc(f.measured, func(r store.Run) bool { return r.Workload == n })
		})
	}
	for _, f := range facts {
		for _, w := range f.Spec.Workloads {
			if !slices.Contains(names, w.Name) && ran(w.Name) {
				names = append(names, w.Name)
			}
		}
	}
	for _, f := range facts {
		for _, r := range f.measured {
			if !slices.Contains(names, r.Workload) {
				names = append(names, r.Workload)
			}
		}
	}
	if o.Workload != "" {
		if !slices.Contains(names, o.Workload) {
			return nil, fmt.Errorf("the studies have no finished runs of %s; they ran: %s", o.Workload, strings.Join(names, ", "))
		}
		names = []string{o.Workload}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("the studies have no finished measured runs to analyse")
	}
	var out []*Dataset
	for _, name := range names {
		ds, err := readWorkload(ctx, facts, name, factors, kernelLevel, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, d := range ds {
			d.Notes = append(slices.Clone(notes), d.Notes...)
		}
		out = append(out, ds...)
	}
	return out, nil
}

// readStudy picks a study's measured runs and figures, and tells its
// kernel from the host facts.
func readStudy(s *study.Stored) (*studyFacts, error) {
	if s.SpecErr != nil {
		return nil, fmt.Errorf("study %d in %s: its stored spec: %w", s.ID, s.Store.Path(), s.SpecErr)
	}
	f := &studyFacts{Stored: s, label: s.Host.Label(), kernel: "vanilla", byRunID: map[int64]map[string]store.Sample{}}
	if s.Host.RealtimeKernel || strings.HasPrefix(s.Host.Preemption, "PREEMPT_RT") {
		f.kernel = "rt"
	}
	for _, r := range s.Runs {
		if r.Status == store.RunOK && !r.Warmup {
			f.measured = append(f.measured, r)
		}
	}
	for _, smp := range s.Samples {
		if smp.Instance != 0 {
			continue
		}
		if f.byRunID[smp.RunID] == nil {
			f.byRunID[smp.RunID] = map[string]store.Sample{}
		}
		f.byRunID[smp.RunID][smp.Metric] = smp
	}
	return f, nil
}

// kernelLevels names each study's kernel level: rt or vanilla; when that
// does not tell the studies apart but their releases differ, the release.
func kernelLevels(facts []*studyFacts) func(*studyFacts) string {
	kinds, releases := map[string]bool{}, map[string]bool{}
	for _, f := range facts {
		kinds[f.kernel] = true
		releases[f.Host.KernelRelease] = true
	}
	if len(kinds) == 1 && len(releases) > 1 {
		return func(f *studyFacts) string { return f.Host.KernelRelease }
	}
	return func(f *studyFacts) string { return f.kernel }
}

// readWorkload builds the datasets of one workload.
func readWorkload(ctx context.Context, facts []*studyFacts, name string, factors []stats.Factor,
	kernelLevel func(*studyFacts) string, o StudyOptions) ([]*Dataset, error) {
	responses := o.Responses
	if len(responses) == 0 {
		responses = defaultResponses(name)
	}
	if len(responses) == 0 {
		return nil, fmt.Errorf("no responses: name the series or metrics to analyse")
	}
	slicesCells := stats.NewCells(factors, responses)
	runCells := stats.NewCells(factors, responses)
	units := map[string]string{}
	perSlice := !o.RunsOnly
	runs := 0
	var scenario []runMetrics
	for _, f := range facts {
		for _, r := range f.measured {
			if r.Workload != name {
				continue
			}
			codes, err := runCodes(r, f, factors, kernelLevel)
			if err != nil {
				return nil, err
			}
			cols := make([][]float64, len(responses))
			means := make([]float64, len(responses))
			for i, resp := range responses {
				series, err := f.Store.ReadSeries(ctx, r.ID, resp)
				if err == nil {
					cols[i] = series.Values
					means[i] = stats.Mean(series.Values)
					units[resp] = series.Unit
					continue
				}
				perSlice = false // a response that is not a series: runs only
				s, ok := f.byRunID[r.ID][resp]
				if !ok {
					return nil, fmt.Errorf("run %d (study %d) has neither a series nor a metric %q", r.ID, f.ID, resp)
				}
				means[i] = s.Value
				units[resp] = s.Unit
			}
			if perSlice {
				n := len(cols[0])
				for i, c := range cols {
					if len(c) != n {
						return nil, fmt.Errorf("run %d: series %s has %d values, %s %d: they do not align slice by slice", r.ID, responses[i], len(c), responses[0], n)
					}
				}
				if err := slicesCells.AddColumns(codes, cols); err != nil {
					return nil, err
				}
			}
			if err := runCells.Add(codes, means); err != nil {
				return nil, err
			}
			rm := runMetrics{codes: codes, values: map[string]float64{}}
			for _, m := range deadlineMetrics {
				if s, ok := f.byRunID[r.ID][m]; ok {
					rm.values[m] = s.Value
				}
			}
			scenario = append(scenario, rm)
			runs++
		}
	}
	model := defaultModel(factors, runCells)
	run := &Dataset{Workload: name, Unit: PerRun, Cells: runCells, Units: units, Runs: runs, DefaultModel: model}
	if varies(factors, runCells, "env") && varies(factors, runCells, "host") && !fullyCrossed(factors, runCells, "env", "host") {
		run.Notes = append(run.Notes, "env:host (does an environment cost more on one device?) is left out of the model: not every device ran every environment; name the devices that did with --study")
	}
	if !perSlice {
		run.scenario = scenario
		return []*Dataset{run}, nil
	}
	slice := &Dataset{Workload: name, Unit: PerSlice, Cells: slicesCells, Units: units, Runs: runs, DefaultModel: model, scenario: scenario}
	if n := slicesCells.Skipped(); n > 0 {
		slice.Notes = append(slice.Notes, fmt.Sprintf("%d slices with a non-finite value are left out", n))
	}
	return []*Dataset{slice, run}, nil
}

// runCodes finds a run's level of every factor.
func runCodes(r store.Run, f *studyFacts, factors []stats.Factor, kernelLevel func(*studyFacts) string) ([]int, error) {
	codes := make([]int, len(factors))
	for i, fac := range factors {
		var level string
		switch fac.Name {
		case "env":
			level = r.Env
		case "kernel":
			level = kernelLevel(f)
		case "host":
			level = f.label
		default:
			var ok bool
			if level, ok = r.Levels[fac.Name]; !ok {
				// A factor of another study, or one that does not apply to
				// this workload: the run is at its first level.
				level = fac.Levels[0]
			}
		}
		codes[i] = slices.Index(fac.Levels, level)
		if codes[i] < 0 {
			return nil, fmt.Errorf("run %d: level %q of %s is unknown", r.ID, level, fac.Name)
		}
	}
	return codes, nil
}

// defaultResponses are the thesis's for its tasks, else the workload's
// primary metrics (per run only).
func defaultResponses(name string) []string {
	if r, ok := thesisResponses[name]; ok {
		return r
	}
	w, err := workload.Lookup(name)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range w.Info().Metrics {
		if !m.Secondary {
			out = append(out, m.Name)
		}
	}
	return out
}

// defaultModel is the main effects of every factor with two or more levels
// in the data, and env:kernel when both are among them (the thesis's model).
func defaultModel(factors []stats.Factor, cells *stats.Cells) string {
	var terms []string
	seen := make([]map[int]bool, len(factors))
	for i := range seen {
		seen[i] = map[int]bool{}
	}
	for _, cl := range cells.List() {
		for i, c := range cl.Codes {
			seen[i][c] = true
		}
	}
	for i, f := range factors {
		if len(seen[i]) > 1 {
			terms = append(terms, f.Name)
		}
	}
	if slices.Contains(terms, "kernel") && slices.Contains(terms, "host") && determines(factors, cells, "host", "kernel") {
		terms = slices.DeleteFunc(terms, func(t string) bool { return t == "kernel" }) // each device ran one kernel: the host term holds its effect
	}
	if slices.Contains(terms, "env") && slices.Contains(terms, "kernel") {
		terms = append(terms, "env:kernel")
	}
	if slices.Contains(terms, "env") && slices.Contains(terms, "host") && fullyCrossed(factors, cells, "env", "host") {
		terms = append(terms, "env:host") // does the environment cost more on one device than on another?
	}
	return strings.Join(terms, " + ")
}

// runMetrics are one run's figures for the scenario table.
type runMetrics struct {
	codes  []int
	values map[string]float64
}
