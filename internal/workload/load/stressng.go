package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
	"github.com/boxtax/boxtax/internal/workload/stressng"
)

// StressNG is the load.stress-ng workload: stress-ng's CPU stressor with the
// thesis's options. It needs stress-ng on the machine where it runs, so it
// is a background load (run on the host), not something for containers: the
// worker image holds only boxtax.
var StressNG = workload.Define[stressConfig](workload.Info{
	Name:     "load.stress-ng",
	Summary:  "background CPU load by stress-ng itself (needs stress-ng installed on the host)",
	SeedTool: "stress-ng --cpu 2 --cpu-load 80 --cpu-method pi --sched fifo --sched-prio 48",
	Metrics: []workload.Metric{
		{Name: "bogo_ops_per_s", Unit: "ops/s", Label: "bogo ops/s", HigherIsBetter: true, Description: "stress-ng's bogo operations per second of real time, all stressors"},
		{Name: "cpu_pct", Unit: "%", Label: "cpu %", Description: "user plus system CPU time of the stressors over their real time and count: the load achieved"},
	},
})

// stressConfig is load.stress-ng's parameters, checked. Whether stress-ng
// is installed is checked when it runs, where it runs.
type stressConfig struct {
	workers, loadPct, priority int
	method, policyName         string
	policy                     sched.Policy
	duration                   time.Duration
}

// Declare implements workload.Declarer.
func (c *stressConfig) Declare(d *workload.Decl) {
	d.Int(&c.workers, "workers", 2, "CPU stressors (--cpu)")
	d.Min(1)
	d.Int(&c.loadPct, "load_pct", 80, "load each stressor puts on its CPU, in percent (--cpu-load)")
	d.Range(1, 100)
	d.String(&c.method, "method", "pi", "what the stressors compute (--cpu-method), e.g. pi, fft, matrixprod")
	d.String(&c.policyName, "policy", "fifo", "scheduling policy (--sched): fifo, rr or other")
	d.Int(&c.priority, "priority", 48, "real-time priority for fifo and rr (--sched-prio)")
	d.Duration(&c.duration, "duration", 0, "how long to run (--timeout); 0 runs until stopped")
	d.Min(0, "until stopped")
}

// stressConfig keeps these optional abilities (checked by the compiler).
var _ workload.HostChecker = (*stressConfig)(nil)

// Check implements workload.Checker.
func (c *stressConfig) Check() error {
	var err error
	if c.policy, err = sched.ParsePolicy(c.policyName); err != nil {
		return fmt.Errorf("parameter policy: %w", err)
	}
	switch {
	case c.method == "" || strings.ContainsAny(c.method, " \t-"):
		return fmt.Errorf("parameter method: %q is not a stress-ng CPU method such as pi", c.method)
	}
	if err := sched.CheckPriority(c.policy, c.priority); err != nil {
		return fmt.Errorf("parameter priority: %w", err)
	}
	return nil
}

// args are stress-ng's arguments for c.
func (c *stressConfig) args() []string {
	a := []string{"--cpu", strconv.Itoa(c.workers), "--cpu-load", strconv.Itoa(c.loadPct), "--cpu-method", c.method,
		"--sched", c.policy.String()}
	if c.policy.RealTime() {
		a = append(a, "--sched-prio", strconv.Itoa(c.priority))
	}
	timeout := int64(c.duration.Round(time.Second) / time.Second)
	if c.duration > 0 && timeout == 0 {
		timeout = 1
	}
	return append(a, "--timeout", strconv.FormatInt(timeout, 10), "--metrics-brief")
}

// Run implements workload.Config.
func (c *stressConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	bin, err := exec.LookPath("stress-ng")
	if err != nil {
		return fmt.Errorf("stress-ng is not installed here (%w): install it (Debian/Ubuntu: apt-get install stress-ng) or use the built-in load.cpu", err)
	}
	cmd := exec.Command(bin, c.args()...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// stress-ng stays in the worker's process group, so that the controller's
	// kill of the group reaches its stressors too; a cancelled context asks
	// it to stop with SIGTERM, after which it prints its metrics.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting stress-ng: %w", err)
	}
	e.Note("command", "stress-ng "+strings.Join(c.args(), " "))
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	stopped := false
	select {
	case err = <-waited:
	case <-ctx.Done():
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err = <-waited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			err = <-waited
		}
	}
	var ee *exec.ExitError
	if err != nil && !(stopped && errors.As(err, &ee)) {
		return fmt.Errorf("stress-ng %s: %w; its output: %s", strings.Join(c.args(), " "), err, lastLines(out.String(), 5))
	}
	ops, cpuPct, ok := parseMetrics(out.String(), c.workers)
	if !ok {
		if stopped {
			return ctx.Err()
		}
		return fmt.Errorf("stress-ng printed no metrics line for the cpu stressor; its output: %s", lastLines(out.String(), 5))
	}
	e.Sample("bogo_ops_per_s", ops)
	e.Sample("cpu_pct", cpuPct)
	if stopped && c.duration > 0 {
		return ctx.Err()
	}
	return nil
}

// parseMetrics reads the cpu stressor's line of --metrics-brief
// (stressng.ParseMetrics): its bogo ops per second and the CPU time of the
// workers in percent of their real time.
func parseMetrics(out string, workers int) (opsPerS, cpuPct float64, ok bool) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m, ok := stressng.ParseMetrics(sc.Text())
		if ok && m.Stressor == "cpu" && m.RealS > 0 {
			return m.BogoOpsPerS, 100 * (m.UserS + m.SysS) / m.RealS / float64(workers), true
		}
	}
	return 0, 0, false
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// CheckHost implements workload.HostChecker: stress-ng must be installed.
func (c *stressConfig) CheckHost() error {
	return workload.NeedProgram("stress-ng", "stress-ng")
}
