package store

import "time"

// Study statuses.
const (
	StudyRunning     = "running"
	StudyInterrupted = "interrupted"
	StudyFinished    = "finished"
)

// Run statuses.
const (
	RunPending = "pending"
	RunOK      = "ok"
	RunFailed  = "failed"
	// RunDisturbed is a run that ended well on a host the monitors saw
	// disturbed (monitor.DisturbLimits): kept with its samples and its
	// Reason, left out of every verdict.
	RunDisturbed = "disturbed"
)

// Study is one execution of a study spec and everything made from it.
type Study struct {
	ID         int64
	Name       string
	SpecYAML   string // the spec as run, after command-line overrides
	Seed       int64  // the seed that ordered the runs
	HostJSON   string // host facts (hostinfo.Host as JSON)
	Status     string
	CreatedAt  time.Time
	FinishedAt time.Time // zero while not finished
}

// Run is one repetition of one workload in one cell.
type Run struct {
	ID       int64
	StudyID  int64
	Seq      int    // position in the randomized order
	CellKey  string // canonical name of the cell, e.g. "cpu.prime|env=native"
	Workload string
	Env      string
	Levels   map[string]string // every factor's level, env included
	Params   map[string]any    // the workload parameters as run
	Rep      int               // repetition index, from 0; warm-ups count separately
	Warmup   bool
	Status   string
	Reason   string            // why a run failed, or why it was disturbed
	Settings map[string]string // the environment's actual settings
	Notes    map[string]string // how the workload did its work
	Started  time.Time
	Ended    time.Time
}

// Sample is one measured value.
type Sample struct {
	RunID    int64
	Instance int // 0: the run's figure (the aggregate when N instances ran); 1..N: one instance
	Metric   string
	Value    float64
	Unit     string
}

// Series is a long per-iteration record of one run, e.g. the wake-up latency
// of every time slice. Values are stored in chunks of little-endian float64.
type Series struct {
	RunID    int64
	Instance int // 0 for a single instance; 1..N for one of N
	Name     string
	Unit     string
	Values   []float64
}
