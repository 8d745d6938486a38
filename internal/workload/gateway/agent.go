package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// Kinds of device agent.
const (
	agentSimulated = "simulated" // a simulated CO2 sensor
	agentFile      = "file"      // file:PATH, read at every period
	agentCommand   = "command"   // command:PROG ARGS, run at every period
	agentStream    = "stream"    // stream:PROG ARGS, runs on; every line it writes is a reading
)

// agentSpec is a parsed agent parameter.
type agentSpec struct {
	kind string
	path string   // file
	argv []string // command, stream
}

func (s agentSpec) String() string {
	switch s.kind {
	case agentFile:
		return agentFile + ":" + s.path
	case agentCommand, agentStream:
		return s.kind + ":" + strings.Join(s.argv, " ")
	}
	return s.kind
}

// parseAgent reads the agent parameter: simulated, file:PATH,
// command:PROG ARGS or stream:PROG ARGS. A command is split at spaces and
// run without a shell (a container may have none).
func parseAgent(s string) (agentSpec, error) {
	kind, arg, _ := strings.Cut(s, ":")
	arg = strings.TrimSpace(arg)
	const valid = "valid agents: simulated, file:PATH (e.g. file:/sys/class/thermal/thermal_zone0/temp), command:PROG ARGS (run at every period, its output is the reading), stream:PROG ARGS (runs on, every line it writes is a reading)"
	switch kind {
	case agentSimulated:
		if arg != "" {
			return agentSpec{}, fmt.Errorf("parameter agent: simulated takes no argument, got %q", s)
		}
		return agentSpec{kind: kind}, nil
	case agentFile:
		if arg == "" {
			return agentSpec{}, fmt.Errorf("parameter agent: file needs a path, e.g. file:/sys/class/thermal/thermal_zone0/temp")
		}
		return agentSpec{kind: kind, path: arg}, nil
	case agentCommand, agentStream:
		argv := strings.Fields(arg)
		if len(argv) == 0 {
			return agentSpec{}, fmt.Errorf("parameter agent: %s needs a program, e.g. %s:/usr/bin/sensors", kind, kind)
		}
		return agentSpec{kind: kind, argv: argv}, nil
	}
	return agentSpec{}, fmt.Errorf("parameter agent: unknown agent %q; %s", s, valid)
}

// program is the executable a command agent runs, as an absolute path
// when it is one or can be found ("" for other agents).
func (s agentSpec) program() string {
	if len(s.argv) == 0 {
		return ""
	}
	if filepath.IsAbs(s.argv[0]) {
		return s.argv[0]
	}
	if p, err := exec.LookPath(s.argv[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	return ""
}

// resolveProgram makes a command agent's program a path: a name is looked
// up in PATH, and in the usual directories when PATH has none (a container
// of host programs has no PATH).
func (s *agentSpec) resolveProgram() {
	if len(s.argv) == 0 || strings.Contains(s.argv[0], "/") {
		return
	}
	if _, err := exec.LookPath(s.argv[0]); err == nil {
		return
	}
	for _, dir := range []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"} {
		p := filepath.Join(dir, s.argv[0])
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			s.argv[0] = p
			return
		}
	}
}

// commandTimeout is how long one run of a command agent may take.
const commandTimeout = 10 * time.Second

// agent keeps the latest reading of a device as the SenML body the gateway
// serves, as LinkSmart's device agents feed its cache.
type agent struct {
	spec   agentSpec
	period time.Duration

	body    atomic.Pointer[[]byte] // the latest reading, encoded
	updates atomic.Int64           // readings taken
	failed  atomic.Int64           // readings that failed (the last body stays)
	mu      sync.Mutex
	lastErr error

	rnd *rand.Rand
	co2 float64 // the simulated sensor's value
}

func newAgent(spec agentSpec, period time.Duration) *agent {
	spec.argv = append([]string(nil), spec.argv...)
	spec.resolveProgram()
	return &agent{spec: spec, period: period, rnd: rand.New(rand.NewPCG(rand.Uint64(), 1)), co2: 600}
}

// latest is the body of the latest reading.
func (a *agent) latest() []byte { return *a.body.Load() }

// start takes the first reading (an agent that cannot read fails here,
// before the gateway listens), then keeps reading until ctx ends. The
// function it returns stops the agent and waits for it, including any
// program it runs.
func (a *agent) start(ctx context.Context) (stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop = func() { cancel(); wg.Wait() }
	if a.spec.kind == agentStream {
		if err := a.startStream(ctx, &wg); err != nil {
			stop()
			return nil, err
		}
		return stop, nil
	}
	if err := a.read(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("agent %s: the first reading failed: %w", a.spec, err)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(a.period)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := a.read(ctx); err != nil && ctx.Err() == nil {
					a.fail(err)
				}
			}
		}
	}()
	return stop, nil
}

// read takes one reading.
func (a *agent) read(ctx context.Context) error {
	var r reading
	switch a.spec.kind {
	case agentSimulated:
		// A random walk between 400 and 999.99 ppm, the range of indoor air.
		a.co2 = min(999.99, max(400, a.co2+a.rnd.NormFloat64()*5))
		r = reading{name: "co2", unit: "ppm", value: a.co2, decimals: 2}
	case agentFile:
		b, err := os.ReadFile(a.spec.path)
		if err != nil {
			return err
		}
		r = parseReading("value", string(b))
	case agentCommand:
		cctx, cancel := context.WithTimeout(ctx, commandTimeout)
		defer cancel()
		cmd := exec.CommandContext(cctx, a.spec.argv[0], a.spec.argv[1:]...)
		cmd.WaitDelay = time.Second
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && len(ee.Stderr) > 0 {
				err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
			}
			return err
		}
		r = parseReading("value", string(out))
	}
	a.set(r)
	return nil
}

func (a *agent) set(r reading) {
	b := senml(r)
	a.body.Store(&b)
	a.updates.Add(1)
}

func (a *agent) fail(err error) {
	a.failed.Add(1)
	a.mu.Lock()
	a.lastErr = err
	a.mu.Unlock()
}

// lastError is the latest failed reading's error, nil if none failed.
func (a *agent) lastError() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastErr
}

// streamFirstTimeout is how long a stream agent may take to write its first line.
const streamFirstTimeout = 10 * time.Second

// startStream starts a stream agent's program and takes every line it
// writes as a reading, until ctx ends; it waits for the first line. The
// program is killed and reaped when ctx ends.
func (a *agent) startStream(ctx context.Context, wg *sync.WaitGroup) error {
	cmd := exec.CommandContext(ctx, a.spec.argv[0], a.spec.argv[1:]...)
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr := &hostprog.Tail{Max: 1024}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("agent %s: %w", a.spec, err)
	}
	first := make(chan struct{})
	var once sync.Once
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			a.set(parseReading("value", sc.Text()))
			once.Do(func() { close(first) })
		}
		err := cmd.Wait()
		if ctx.Err() == nil {
			a.fail(fmt.Errorf("the program ended (%v) %s", err, strings.TrimSpace(stderr.String())))
		}
		once.Do(func() { close(first) })
	}()
	select {
	case <-first:
	case <-time.After(streamFirstTimeout):
		return fmt.Errorf("agent %s wrote no reading within %v", a.spec, streamFirstTimeout)
	}
	if a.body.Load() == nil {
		return fmt.Errorf("agent %s ended without a reading: %v", a.spec, a.lastError())
	}
	return nil
}
