package study

import (
	"slices"

	"github.com/boxtax/boxtax/internal/study/launch"
	"github.com/boxtax/boxtax/internal/workload"
	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
)

// Command is a run of commands instead of a study:
// boxtax run --cmd 'sysbench cpu --time=5 run' --metric 'events/s=events per second:\s*([0-9.]+)'.
// Several --cmd are the levels of a factor named command; each --param
// NAME=V1,V2 is a factor too, its value substituted for {NAME} in the
// commands, as hyperfine does.
type Command struct {
	Cmds                                  []string
	Setup, Prepare, Parse, Timeout, Image string
	Metrics, Files, Params                []string
}

// CommandFactor is the factor of a study of several --cmd: its levels
// are the shortened commands.
const CommandFactor = cmdwl.CommandFactor

// Used tells whether any of its options is set.
func (c Command) Used() bool {
	return len(c.Cmds) > 0 || c.Setup != "" || c.Prepare != "" || c.Parse != "" || c.Timeout != "" || c.Image != "" ||
		len(c.Metrics) > 0 || len(c.Files) > 0 || len(c.Params) > 0
}

// Spec is the study of a --cmd run: the cmd workload natively and in
// Docker with bridge and host networking (--envs changes them), five
// measured repetitions after a warm-up round, named after its commands
// (shortened). It is stored with the study as any study file is, so
// --resume and report read it back. The workload reads its flags
// (cmdwl.Plan).
func (c Command) Spec() (*Spec, error) {
	plan, err := cmdwl.Plan(cmdwl.Given(c), []string{"env", "workload", launch.InstancesFactor, launch.PlacementFactor, launch.WireFactor})
	if err != nil {
		return nil, err
	}
	factors := make([]Factor, len(plan.Factors))
	for i, f := range plan.Factors {
		factors[i] = Factor{Name: f.Name, Param: f.Param, Levels: f.Levels, Values: f.Values}
	}
	warmup := 1
	return &Spec{
		Name: plan.Name, Description: plan.Description,
		Repetitions: 5, Warmup: &warmup, Baseline: "native",
		Envs:      []Named{{Name: "native"}, {Name: "docker-bridge"}, {Name: "docker-host"}},
		Workloads: []WorkloadSpec{{Name: plan.Workload, Params: plan.Params}},
		Factors:   factors,
		file:      plan.File, planNotes: plan.Notes,
	}, nil
}

// WorkloadNotes are what the workloads say about how their cells are
// measured (a figure of the user's replacing the adapter's), each once.
func (s *Spec) WorkloadNotes() []string {
	cells, err := s.Cells()
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range cells {
		wl, err := workload.Lookup(c.Workload)
		if err != nil {
			continue
		}
		if n, ok := workload.As[workload.Noter](wl, c.Params); ok {
			for _, note := range n.Notes() {
				if !slices.Contains(out, note) {
					out = append(out, note)
				}
			}
		}
	}
	return out
}
