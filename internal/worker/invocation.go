package worker

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/boxtax/boxtax/internal/env"
)

// Command is the boxtax command that runs a worker.
const Command = "worker"

// cpusFlag pins the worker to CPUs; see Invocation.CPUs.
const cpusFlag = "--cpus"

const sharedCPUsFlag = "--shared-cpus"

// Invocation is one worker's command line: which workload, with which
// parameters, and which side of a client-server workload.
type Invocation struct {
	Workload string
	Params   string // JSON object
	Scratch  string // directory for scratch files; "": a new one, removed afterwards
	// CPUs pins the worker to these CPUs (sched_setaffinity). The
	// controller leaves it empty: an environment that cannot confine a
	// plain process itself passes it from env.Spec.CPUSet (see Spec).
	CPUs   string
	Serve  string // host:port: run the server side of a network workload
	Client string // host:port: run the client side against the server there
	// SharedCPUs says that other workers' clients share this client's
	// CPUs (a run's concurrent instances): it must not busy-poll.
	SharedCPUs bool
}

// New is the invocation of a workload with its parameters.
func New(workload string, params map[string]any) (Invocation, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return Invocation{}, fmt.Errorf("encoding parameters: %w", err)
	}
	return Invocation{Workload: workload, Params: string(b)}, nil
}

// AddFlags declares the worker's flags on fs, parsed into inv.
func (inv *Invocation) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&inv.Workload, "workload", "", "the workload to run")
	fs.StringVar(&inv.Params, "params", "{}", "the workload's parameters as a JSON object")
	fs.StringVar(&inv.Scratch, "scratch", "", "directory for scratch files (default: a new one under $TMPDIR, removed afterwards)")
	fs.StringVar(&inv.Serve, "serve", "", "network workloads: run the server side, listening at HOST:PORT")
	fs.StringVar(&inv.Client, "client", "", "network workloads: run the client side against the server at HOST:PORT")
	fs.BoolVar(&inv.SharedCPUs, sharedCPUsFlag[2:], false, "network workloads' client: other clients share this one's CPUs, so it does not busy-poll")
	fs.StringVar(&inv.CPUs, cpusFlag[2:], "", "pin the worker to these CPUs, e.g. 0-1 (sched_setaffinity)")
}

// Args is the command line after the boxtax binary, as AddFlags reads it.
func (inv Invocation) Args() []string {
	args := []string{Command, "--workload", inv.Workload, "--params", inv.Params}
	for _, f := range []struct{ name, value string }{
		{"--scratch", inv.Scratch}, {"--serve", inv.Serve}, {"--client", inv.Client}, {cpusFlag, inv.CPUs},
	} {
		if f.value != "" {
			args = append(args, f.name, f.value)
		}
	}
	if inv.SharedCPUs {
		args = append(args, sharedCPUsFlag)
	}
	return args
}

// Spec is what an environment needs to start this worker: its arguments,
// and the flag by which it pins itself to the spec's CPU set where the
// environment cannot (natively). The caller adds labels, limits and CPUs.
func (inv Invocation) Spec() env.Spec {
	return env.Spec{Args: inv.Args(), PinFlag: cpusFlag}
}
