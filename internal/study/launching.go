package study

import (
	"context"

	"github.com/boxtax/boxtax/internal/study/launch"
	"github.com/boxtax/boxtax/internal/workload"
)

// procedureFor chooses how a run is carried out (see launch.For), pinned as
// the run's placement says.
func (r *Runner) procedureFor(wl workload.Workload, run *executedRun) launch.Procedure {
	cpusets := make([]string, run.instances)
	if r.Spec != nil {
		sets, err := launch.CPUSets(run.Levels, r.Spec.studyCPUs)
		if err != nil {
			return launch.Failed(err)
		}
		cpusets = sets
	}
	return launch.For(wl, launch.Run{Workload: run.Workload, Params: run.Params, Levels: run.Levels, CPUSets: cpusets}, r.Host)
}

// startBackground starts, on the host, what the run's background factors
// ask for (see launch.Background).
func (r *Runner) startBackground(ctx context.Context, run *executedRun) (stop func(), err error) {
	if r.Spec == nil {
		return func() {}, nil
	}
	var loads []launch.Load
	for _, bg := range r.Spec.BackgroundFor(run.Levels) {
		loads = append(loads, launch.Load{Workload: bg.Workload, Params: bg.Params})
	}
	return launch.Background(ctx, r.Host, loads, run.Settings, run.Notes)
}

// instancesOf reads the instances level of a cell; 1 when absent.
func instancesOf(levels map[string]string) int { return launch.Instances(levels) }
