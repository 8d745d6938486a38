package workload

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/boxtax/boxtax/internal/registry"
)

// Metric describes one quantity a workload reports.
type Metric struct {
	Name           string `json:"name"`             // e.g. "events_per_s"
	Unit           string `json:"unit"`             // e.g. "events/s", "MB/s", "s"
	Label          string `json:"label"`            // short column heading, e.g. "triad MB/s"
	HigherIsBetter bool   `json:"higher_is_better"` // throughput yes, latency no
	Description    string `json:"description"`
	// Secondary metrics stay out of the overhead table (they are still
	// stored and in every other format), e.g. a run's fixed duration.
	Secondary bool `json:"secondary,omitempty"`
	// Aggregate says how the values of concurrent instances combine into the
	// run's figure; empty for the default (AggregateSum when HigherIsBetter,
	// AggregateMean otherwise).
	Aggregate Aggregate `json:"aggregate,omitempty"`
	// Absolute metrics show their mean (std) in every environment of the
	// overhead table instead of a % deviation: for start-up times a ratio to
	// a native process's few milliseconds says less than the times themselves.
	Absolute bool `json:"absolute,omitempty"`
}

// Aggregate is how the values of a run's concurrent instances combine into
// one figure. In JSON it is its name.
type Aggregate string

// The ways to aggregate.
const (
	AggregateSum  Aggregate = "sum"  // throughput: instances add up
	AggregateMean Aggregate = "mean" // per-instance figures, latencies
	AggregateMax  Aggregate = "max"
	AggregateMin  Aggregate = "min"
)

// Combine aggregates the values of concurrent instances as m.Aggregate says.
func (m Metric) Combine(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	how := m.Aggregate
	if how == "" {
		how = AggregateMean
		if m.HigherIsBetter {
			how = AggregateSum
		}
	}
	out := values[0]
	sum := 0.0
	for _, v := range values {
		sum += v
		switch {
		case how == AggregateMax && v > out, how == AggregateMin && v < out:
			out = v
		}
	}
	switch how {
	case AggregateSum:
		return sum
	case AggregateMean:
		return sum / float64(len(values))
	}
	return out
}

// Param describes one parameter a workload accepts, with its default.
type Param struct {
	Name        string `json:"name"`
	Default     any    `json:"default"`
	Description string `json:"description"`
	// Required parameters have no useful default (the command to run):
	// a study must give them.
	Required bool `json:"required,omitempty"`
}

// Info is what a workload says about itself: it feeds `boxtax list workloads`,
// the docs and the validation of study specs.
type Info struct {
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	SeedTool string   `json:"seed_tool"` // the tool the seed studies used for this
	Params   []Param  `json:"params"`
	Metrics  []Metric `json:"metrics"`
}

// Metric returns the metric with the given name.
func (i Info) Metric(name string) (Metric, bool) {
	for _, m := range i.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Env is what the worker process gives a workload: where to put scratch files.
type Env struct {
	ScratchDir string // a directory the workload may write to; removed afterwards by the caller
}

// Workload does work and reports samples.
type Workload interface {
	Info() Info
	// Configure parses p (merged with the defaults by Check; a parameter
	// p lacks takes its default) into the workload's config, checking
	// every value. It is the one place a workload reads its parameters.
	Configure(p Params) (Config, error)
}

// Config is a workload's parameters, parsed and checked: what a run does.
// A config may also be a Requirer, a MemoryNeeder, a HostChecker and, for
// a ClientServer workload, Sides.
type Config interface {
	// Run does the work and reports every measured value through e. It
	// returns an error when the work could not be done.
	Run(ctx context.Context, env Env, e Emitter) error
}

// Configure is Prepare without normalizing, for parameters prepared
// before (a run's stored parameters): w's config for p.
func Configure(w Workload, p Params) (Config, error) {
	merged, err := Check(w.Info(), p)
	if err != nil {
		return nil, err
	}
	c, err := w.Configure(merged)
	if err != nil {
		return nil, fmt.Errorf("workload %s: %w", w.Info().Name, err)
	}
	return c, nil
}

// Validate says whether p are good parameters for w: Configure's error.
func Validate(w Workload, p Params) error {
	_, err := Configure(w, p)
	return err
}

// Run configures w with p and runs it: for tests and tools that run a
// workload in one go.
func Run(ctx context.Context, w Workload, p Params, env Env, e Emitter) error {
	c, err := Configure(w, p)
	if err != nil {
		return err
	}
	return c.Run(ctx, env, e)
}

// SeriesEmitter is implemented by emitters that take long per-iteration
// records (every time slice of a periodic task, say). A workload sends a
// series in chunks of any size; chunks of one name are concatenated in order.
// Emitters given to workloads by the worker implement it.
type SeriesEmitter interface {
	Series(name, unit string, values []float64)
}

// Requirements say what a workload needs from the environment it runs in,
// beyond what an unprivileged container has by default.
type Requirements struct {
	CapAdd  []string         // Linux capabilities, e.g. SYS_NICE for real-time scheduling
	Ulimits map[string]int64 // e.g. rtprio: 99, memlock: -1 (unlimited)
	// CPURealtimeRuntimeUs is the real-time CPU time per second the
	// container's cgroup may give its real-time threads (docker run
	// --cpu-rt-runtime). Kernels with CONFIG_RT_GROUP_SCHED give a new
	// cgroup none, so SCHED_FIFO fails there without it; other kernels ignore it.
	CPURealtimeRuntimeUs int64
	// HostPrograms are executables of the host (absolute paths: a real
	// mosquitto, nginx, redis-server) that the worker starts in the
	// environment under test. Natively they run where they are; a container
	// environment runs the worker from an image that also holds each of
	// them at the same path with the shared libraries and files it needs
	// (internal/hostimage), so the very binary that runs natively runs in
	// the container.
	HostPrograms []string
	// HostFiles are more host files or directories (taken whole) that
	// the host programs need at the same paths in a container: programs
	// they start, plugins, configuration, data. ELF files among them get
	// their libraries too (hostimage.Options.Files).
	HostFiles []string
	// Image is a local container image of the user's to run the worker
	// in, instead of boxtax's own (the program under test is in it).
	Image string
	// ImageID is the id Image must have in every environment.
	ImageID string
}

// RealtimeRuntimeUs is the real-time CPU time per second a container with
// real-time threads asks for (Requirements.CPURealtimeRuntimeUs): the
// kernel's own default (sched_rt_runtime_us), so container and host tasks
// are throttled alike.
const RealtimeRuntimeUs = 950000

// AddRealtime adds to r what real-time threads need in a container:
// CAP_SYS_NICE (unless r has it) and the real-time budget RealtimeRuntimeUs.
func (r *Requirements) AddRealtime() {
	if !slices.Contains(r.CapAdd, "SYS_NICE") {
		r.CapAdd = append(r.CapAdd, "SYS_NICE")
	}
	r.CPURealtimeRuntimeUs = RealtimeRuntimeUs
}

// StorageUser is a workload whose figures are those of the storage it
// writes to (the disk workloads): in a container, by default, the
// engine's storage driver. A study says before its first run when that
// driver lets memory serve the I/O (study.Spec.StorageNote).
type StorageUser interface {
	UsesStorage() bool
}

// Requirer is implemented by configs that need more than the defaults.
// Containers get exactly these and nothing more (never --privileged).
type Requirer interface {
	Requirements() Requirements
}

// RequirementsOf is what w needs from its environment with parameters p;
// bad parameters are an error.
func RequirementsOf(w Workload, p Params) (Requirements, error) {
	r, ok, err := ability[Requirer](w, p)
	if !ok {
		return Requirements{}, err
	}
	return r.Requirements(), nil
}

// MemoryNeeder is implemented by configs that hold a lot of memory, so a
// study asking for more concurrent instances than memory allows is refused
// before it starts.
type MemoryNeeder interface {
	// MemoryBytes is what one instance holds at its peak.
	MemoryBytes() int64
}

// MemoryOf is what one instance of w holds at its peak with parameters p,
// 0 when w does not say; bad parameters are an error.
func MemoryOf(w Workload, p Params) (int64, error) {
	m, ok, err := ability[MemoryNeeder](w, p)
	if !ok {
		return 0, err
	}
	return m.MemoryBytes(), nil
}

// FailureHinter is implemented by configs that can say what to do about a
// run that failed with reason (a file its image lacks, a figure that read
// no number); ownFiles says the environment ran it among files of its own
// (an image or root filesystem), not this host's. "" says nothing.
type FailureHinter interface {
	FailureHint(reason string, ownFiles bool) string
}

// Noter is implemented by configs that say how their runs are measured
// when a study starts (a figure of the user's replacing a tool's).
type Noter interface {
	Notes() []string
}

// As is w's config for p as the optional ability A (a FailureHinter, a
// Noter), and whether it has it; bad parameters give none.
func As[A any](w Workload, p Params) (A, bool) {
	a, ok, _ := ability[A](w, p)
	return a, ok
}

// ability is As with the error of bad parameters.
func ability[A any](w Workload, p Params) (a A, ok bool, err error) {
	c, err := Configure(w, p)
	if err == nil {
		a, ok = c.(A)
	}
	return a, ok, err
}

// Image is what a local container image of the user's says of its
// program: its id, what runs when the study names nothing, and how.
type Image struct {
	Name, ID                    string
	Entrypoint, Cmd, Env, Ports []string
	Volumes                     []string
	User, WorkingDir            string
}

// ImageRunner is implemented by workloads that may run the program of a
// local image of the user's (the cmd workloads). ImageOf is the image p
// names, "" for none; UseImage sets in p what the image says of how its
// program runs, and the program unless p or a factor of the study gives
// it (factorSets says whether one sets a parameter).
type ImageRunner interface {
	ImageOf(p Params) string
	UseImage(p Params, img Image, factorSets func(param string) bool) error
}

// Normalizer is implemented by workloads whose parameters have a canonical
// form that depends on the host (a program named on PATH becomes its
// absolute path). Normalize must be idempotent: Prepare calls it on the
// controller, which stores the result, and again in the worker.
type Normalizer interface {
	Normalize(p Params) (Params, error)
}

// MetricDeclarer is implemented by workloads whose metrics depend on their
// parameters (the command workload's metrics extracted from its output):
// MetricsFor lists every metric a run with parameters p may report,
// Info().Metrics among them.
type MetricDeclarer interface {
	MetricsFor(p Params) []Metric
}

// MetricsOf is the metrics a run of w with parameters p may report.
func MetricsOf(w Workload, p Params) []Metric {
	if d, ok := w.(MetricDeclarer); ok {
		return d.MetricsFor(p)
	}
	return w.Info().Metrics
}

// MetricOf describes metric of the registered workload name as a run with
// parameters p reports it.
func MetricOf(name string, p Params, metric string) (Metric, bool) {
	w, err := Lookup(name)
	if err != nil {
		return Metric{}, false
	}
	for _, m := range MetricsOf(w, p) {
		if m.Name == metric {
			return m, true
		}
	}
	return Metric{}, false
}

// Prepare merges p over w's defaults, rejects unknown names, normalizes
// them when w is a Normalizer and configures w with them, which checks
// every value. It returns the parameters to store and the config.
func Prepare(w Workload, p Params) (Params, Config, error) {
	merged, err := Check(w.Info(), p)
	if err != nil {
		return nil, nil, err
	}
	if n, ok := w.(Normalizer); ok {
		if merged, err = n.Normalize(merged); err != nil {
			return nil, nil, fmt.Errorf("workload %s: %w", w.Info().Name, err)
		}
	}
	c, err := w.Configure(merged)
	if err != nil {
		return nil, nil, fmt.Errorf("workload %s: %w", w.Info().Name, err)
	}
	return merged, c, nil
}

// Emitter receives what a workload measures.
type Emitter interface {
	// Sample records one measured value of a metric declared in Info.
	Sample(metric string, value float64)
	// Note records a fact about how the run was done (e.g. "read_cache=o_direct").
	Note(key, value string)
}

var workloads = registry.Registry[Workload]{Unknown: "unknown workload %q; valid workloads: %s"}

// Register adds a workload to the registry; it panics on a duplicate name.
func Register(w Workload) { workloads.Register(w.Info().Name, w) }

// Names lists the registered workloads in order.
func Names() []string { return workloads.Names() }

// Lookup finds a workload by name; an unknown name yields an error listing the valid ones.
func Lookup(name string) (Workload, error) { return workloads.Lookup(name) }

// All returns every registered workload in name order.
func All() []Workload {
	var out []Workload
	for _, n := range Names() {
		w, _ := Lookup(n)
		out = append(out, w)
	}
	return out
}
