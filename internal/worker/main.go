package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// UsageError marks a worker asked for something it cannot do: an unknown
// workload, parameters that are not valid, a side it does not have.
type UsageError struct{ Err error }

func (u UsageError) Error() string { return u.Err.Error() }
func (u UsageError) Unwrap() error { return u.Err }

func usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// Main runs the workload of inv and speaks the worker protocol on stdout: a
// hello line first (its time is the worker's first instruction), then
// samples and notes, then done, or an error line and the error returned.
// version is the binary's, said in the hello.
func Main(ctx context.Context, inv Invocation, stdout io.Writer, version string) error {
	em := workload.NewJSONEmitter(stdout)
	em.Send(workload.Message{Kind: workload.KindHello, UnixNs: time.Now().UnixNano(), PID: os.Getpid(), Version: version})
	fail := func(err error) error {
		em.Send(workload.Message{Kind: workload.KindError, Text: err.Error()})
		return err
	}
	if inv.CPUs != "" {
		set, err := cpuset.Parse(inv.CPUs)
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
	wl, err := workload.Lookup(inv.Workload)
	if err != nil {
		return fail(UsageError{err})
	}
	var raw workload.Params
	if err := json.Unmarshal([]byte(inv.Params), &raw); err != nil {
		return fail(usagef("--params is not a JSON object: %v", err))
	}
	_, cfg, err := workload.Prepare(wl, raw)
	if err != nil {
		return fail(UsageError{err})
	}
	dir := inv.Scratch
	if dir == "" {
		if dir, err = env.MakeScratchDir(); err != nil {
			return fail(fmt.Errorf("making a scratch directory: %w (set TMPDIR to a writable place)", err))
		}
		defer os.RemoveAll(dir)
	}
	start := time.Now()
	if err := runSide(ctx, cfg, inv, workload.Env{ScratchDir: dir}, em); err != nil {
		if ctx.Err() != nil {
			// Stopped by the controller (SIGTERM), which knows why: the
			// workload has stopped what it started, the scratch goes.
			return ctx.Err()
		}
		return fail(fmt.Errorf("%s: %w", inv.Workload, err))
	}
	if ctx.Err() != nil {
		return ctx.Err() // stopped as it ended: not done, as before a SIGKILL
	}
	em.Send(workload.Message{Kind: workload.KindDone, Elapsed: time.Since(start).Nanoseconds()})
	return nil
}

// runSide runs the whole workload, or one side of a client-server one.
func runSide(ctx context.Context, cfg workload.Config, inv Invocation, env workload.Env, em *workload.JSONEmitter) error {
	if inv.Serve == "" && inv.Client == "" {
		return cfg.Run(ctx, env, em)
	}
	cs, ok := cfg.(workload.Sides)
	switch {
	case !ok:
		return usagef("--serve and --client are for network workloads; %s has no server and client sides", inv.Workload)
	case inv.Serve != "" && inv.Client != "":
		return usagef("--serve and --client: one side at a time")
	case inv.Serve != "":
		return noteSideCPU(em, func() error { return cs.Serve(ctx, inv.Serve, em) })
	}
	if inv.SharedCPUs {
		ctx = workload.WithSharedCPUs(ctx)
	}
	return noteSideCPU(em, func() error { return cs.Client(ctx, inv.Client, em) })
}
