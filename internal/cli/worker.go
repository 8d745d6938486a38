package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
)

// workerOptions are the worker's flags: which workload, with which parameters.
type workerOptions struct {
	Workload string
	Params   string // JSON object
	Scratch  string
	CPUs     string // pin the worker to these CPUs (native placement)
	Serve    string // host:port: run the server side of a network workload
	Client   string // host:port: run the client side of a network workload against this server
}

func workerCmd(ctx context.Context, g *Globals, args []string) error {
	var o workerOptions
	fs := newFlags(g, "worker", "--workload NAME [--params JSON]")
	fs.StringVar(&o.Workload, "workload", "", "the workload to run")
	fs.StringVar(&o.Params, "params", "{}", "the workload's parameters as a JSON object")
	fs.StringVar(&o.Scratch, "scratch", "", "directory for scratch files (default: a new one under $TMPDIR, removed afterwards)")
	fs.StringVar(&o.Serve, "serve", "", "network workloads: run the server side, listening at HOST:PORT")
	fs.StringVar(&o.Client, "client", "", "network workloads: run the client side against the server at HOST:PORT")
	fs.StringVar(&o.CPUs, "cpus", "", "pin the worker to these CPUs, e.g. 0-1 (sched_setaffinity)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	return runWorker(ctx, g, o)
}

// runWorker runs one workload and speaks the worker protocol on stdout: a
// hello line first (its time is the worker's first instruction), then samples
// and notes, then done, or an error line and a non-zero exit.
func runWorker(ctx context.Context, g *Globals, o workerOptions) error {
	em := workload.NewJSONEmitter(g.Stdout)
	em.Send(workload.Message{Kind: workload.KindHello, UnixNs: time.Now().UnixNano(), PID: os.Getpid(), Version: g.Version})
	fail := func(err error) error {
		em.Send(workload.Message{Kind: workload.KindError, Text: err.Error()})
		return err
	}
	if o.CPUs != "" {
		set, err := cpuset.Parse(o.CPUs)
		if err == nil {
			err = cpuset.PinProcess(set)
		}
		if err != nil {
			return fail(err)
		}
		// Go sized its scheduler from the affinity it started with; a
		// worker in a container with this cpuset starts with one P per
		// CPU of it, so a natively pinned worker must have the same, or it
		// runs more threads than CPUs (a native server's p99 was 5x the
		// containers' before).
		if os.Getenv("GOMAXPROCS") == "" {
			runtime.GOMAXPROCS(len(set))
		}
	}
	em.Note("cpus_allowed", cpuset.Allowed()) // affinity and any container cpuset alike
	em.Note("gomaxprocs", strconv.Itoa(runtime.GOMAXPROCS(0)))
	wl, err := workload.Lookup(o.Workload)
	if err != nil {
		return fail(usageError{err})
	}
	var raw workload.Params
	if err := json.Unmarshal([]byte(o.Params), &raw); err != nil {
		return fail(usagef("--params is not a JSON object: %v", err))
	}
	_, cfg, err := workload.Prepare(wl, raw)
	if err != nil {
		return fail(usageError{err})
	}
	dir := o.Scratch
	if dir == "" {
		if dir, err = os.MkdirTemp("", "boxtax-"); err != nil {
			return fail(fmt.Errorf("making a scratch directory: %w (set TMPDIR to a writable place)", err))
		}
		defer os.RemoveAll(dir)
	}
	start := time.Now()
	if err := runSide(ctx, cfg, o, workload.Env{ScratchDir: dir}, em); err != nil {
		return fail(fmt.Errorf("%s: %w", o.Workload, err))
	}
	em.Send(workload.Message{Kind: workload.KindDone, Elapsed: time.Since(start).Nanoseconds()})
	return nil
}

// runSide runs the whole workload, or one side of a client-server one.
func runSide(ctx context.Context, cfg workload.Config, o workerOptions, env workload.Env, em *workload.JSONEmitter) error {
	if o.Serve == "" && o.Client == "" {
		return cfg.Run(ctx, env, em)
	}
	cs, ok := cfg.(workload.Sides)
	switch {
	case !ok:
		return usagef("--serve and --client are for network workloads; %s has no server and client sides", o.Workload)
	case o.Serve != "" && o.Client != "":
		return usagef("--serve and --client: one side at a time")
	case o.Serve != "":
		return cs.Serve(ctx, o.Serve, em)
	}
	return cs.Client(ctx, o.Client, em)
}
