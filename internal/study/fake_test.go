package study

import (
	"context"

	"github.com/boxtax/boxtax/internal/workload"
)

// fake is a workload for testing the planning logic only.
type fake struct{ name string }

func (f fake) Info() workload.Info {
	return fakeInfo(f.name, workload.Param{Name: "threads", Default: 1}, workload.Param{Name: "size", Default: "1MiB"})
}

// fakeInfo is the Info of a test workload called name with params, which
// measures one metric, rate.
func fakeInfo(name string, params ...workload.Param) workload.Info {
	return workload.Info{Name: name, Summary: "test", Params: params, Metrics: []workload.Metric{{Name: "rate", Unit: "1/s", Label: "rate"}}}
}

// Configure implements workload.Workload: a fake is its own config.
func (f fake) Configure(workload.Params) (workload.Config, error) { return f, nil }

func (f fake) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	e.Sample("rate", 1)
	return nil
}

// oneParam is a test workload of one parameter whose config, made by
// configure, adds an ability to a fake (MemoryBytes, CheckHost).
type oneParam struct {
	fake
	param     workload.Param
	configure func(workload.Params) (workload.Config, error)
}

func (w oneParam) Info() workload.Info { return fakeInfo(w.name, w.param) }

func (w oneParam) Configure(p workload.Params) (workload.Config, error) { return w.configure(p) }

// memHog, test.mem, says it holds its size parameter in memory.
var memHog = oneParam{fake{"test.mem"}, workload.Param{Name: "size", Default: "1MiB"},
	func(p workload.Params) (workload.Config, error) {
		n, err := p.Bytes("size")
		return memHogConfig{size: n}, err
	}}

// memHogConfig holds size bytes.
type memHogConfig struct {
	fake
	size int64
}

func (c memHogConfig) MemoryBytes() int64 { return c.size }

func init() {
	workload.Register(fake{"test.a"})
	workload.Register(fake{"test.b"})
	workload.Register(memHog)
}

var testEnvs = []string{"native", "docker-bridge", "docker-host"}
