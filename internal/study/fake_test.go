package study

import (
	"context"

	"github.com/boxtax/boxtax/internal/workload"
)

// fake is a workload for testing the planning logic only.
type fake struct{ name string }

func (f fake) Info() workload.Info {
	return workload.Info{Name: f.name, Summary: "test", Params: []workload.Param{
		{Name: "threads", Default: 1}, {Name: "size", Default: "1MiB"},
	}, Metrics: []workload.Metric{{Name: "rate", Unit: "1/s", Label: "rate"}}}
}

func (f fake) Run(ctx context.Context, p workload.Params, _ workload.Env, e workload.Emitter) error {
	e.Sample("rate", 1)
	return nil
}

// memHog says it holds its size parameter in memory.
type memHog struct{ fake }

func (memHog) Info() workload.Info {
	return workload.Info{Name: "test.mem", Params: []workload.Param{{Name: "size", Default: "1MiB"}},
		Metrics: []workload.Metric{{Name: "rate", Unit: "1/s", Label: "rate"}}}
}

func (memHog) MemoryBytes(p workload.Params) int64 {
	n, _ := p.Bytes("size")
	return n
}

func init() {
	workload.Register(fake{"test.a"})
	workload.Register(fake{"test.b"})
	workload.Register(memHog{})
}

var testEnvs = []string{"native", "docker-bridge", "docker-host"}
