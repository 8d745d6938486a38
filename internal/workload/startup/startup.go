// Package startup is the ctr.startup workload: how long an environment takes
// to get a program going and to get rid of it again (the seed 001's container
// activation time, Fig 20). The worker does nothing but say hello; the
// controller times the phases around it.
package startup

import (
	"context"

	"github.com/boxtax/boxtax/internal/workload"
)

func init() { workload.Register(Startup{}) }

// Startup is ctr.startup.
type Startup struct{}

// Info implements workload.Workload.
func (Startup) Info() workload.Info {
	return workload.Info{
		Name:     "ctr.startup",
		Summary:  "time to start a program in the environment and to stop and remove it again, as the seed's container activation time",
		SeedTool: "time docker run (Morabito 2017, Fig 20)",
		Metrics: []workload.Metric{
			{Name: "activation_ms", Unit: "ms", Label: "activation ms", Absolute: true,
				Description: "from the create request (natively: the fork) to the worker's first instruction, as the worker's own clock says (same host clock)"},
			{Name: "create_ms", Unit: "ms", Label: "create ms", Secondary: true, Absolute: true,
				Description: "the create request alone (Docker: POST /containers/create); 0 natively"},
			{Name: "start_ms", Unit: "ms", Label: "start ms", Secondary: true, Absolute: true,
				Description: "the start request alone (Docker: attach and POST /containers/start; natively: fork and exec)"},
			{Name: "first_output_ms", Unit: "ms", Label: "first output ms", Absolute: true,
				Description: "from the create request to the first line of the worker's output arriving at the controller"},
			{Name: "exit_ms", Unit: "ms", Label: "exit ms", Secondary: true, Absolute: true,
				Description: "from the create request until the worker has exited and its output is read"},
			{Name: "stop_remove_ms", Unit: "ms", Label: "stop+remove ms", Absolute: true,
				Description: "stopping and removing what was started, after the worker exited (Docker: remove the container)"},
		},
	}
}

// Configure implements workload.Workload: ctr.startup has no parameters.
func (Startup) Configure(workload.Params) (workload.Config, error) { return startupConfig{}, nil }

// startupConfig is ctr.startup's config: there is nothing to set.
type startupConfig struct{}

// Run does nothing: the hello line the worker sends before it is the
// measurement, the controller's timings are the rest.
func (startupConfig) Run(context.Context, workload.Env, workload.Emitter) error {
	return nil
}

// ControllerMeasured tells the runner to time the environment around the
// worker and report the metrics itself.
func (Startup) ControllerMeasured() {}
