package command

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Server is the cmd.server workload: the user's server program in the
// environment under test and their client program outside it (on the host
// or across the emulated wire), with the server's address substituted into
// both; the client's time, CPU, memory and figures are the run's.
var Server = serverWorkload{workload.NewSidesSpec[serverConfig](workload.Info{
	Name:     "cmd.server",
	Summary:  "your own server in each environment and your own client (wrk, ab, iperf3, a load tool) outside it: the client's time and figures",
	SeedTool: "any server and client",
	Metrics:  baseMetrics(),
})}

// serverWorkload is cmd.server: its info and config, and what a user's
// programs need beside them (Normalize, MetricsFor, ImageOf, UseImage).
type serverWorkload struct {
	workload.SidesSpec[serverConfig, *serverConfig]
}

func init() { workload.Register(Server) }

// serverConfig is cmd.server's parameters, checked: the client as a
// config of cmd (its metrics, adapter, limits) and the server's own.
type serverConfig struct {
	client config // its caps and files are the server's
	// serverSide is the server's command, capabilities and files, checked
	// as cmd checks them.
	serverSide   config
	server       []string
	ready        string
	readyRe      *regexp.Regexp
	readyTimeout time.Duration
	protocol     string
	protocols    []string
	img          serverImage // an image that serves (server_image.go)
}

// Declare implements workload.Declarer.
func (s *serverConfig) Declare(d *workload.Decl) {
	argvVar(d, &s.serverSide.argv, "server", "the server program and its arguments, run in the environment; {host} and {port} are where it must listen (e.g. iperf3 -s -1 -B {host} -p {port})")
	d.Required()
	argvVar(d, &s.client.argv, "client", "the client program and its arguments, run outside; {host}, {port} and {addr} (host:port) are the server's address (e.g. wrk -d 5s http://{addr}/)")
	d.Required()
	d.String(&s.ready, "ready", "port", "when the server can take its client: port (a TCP connection to it succeeds) or a regular expression matching a line it prints")
	d.Duration(&s.readyTimeout, "ready_timeout", 30*time.Second, "longest wait for the server to be ready")
	d.Positive()
	d.String(&s.protocol, "protocol", "tcp", "the server's transports on its port, published by environments with a network of their own: tcp, udp (needs a ready regex) or tcp+udp (iperf3's UDP tests)")
	stringsVar(d, &s.serverSide.files, "files", "host files or directories the server needs in a container (at the same paths)")
	listVar(d, &s.client.metrics, "metrics", "figures read from the client's output, as cmd's metrics")
	d.String(&s.client.parseName, "parse", "auto", "read a known client's output: auto (by the client's name), none, "+strings.Join(AdapterNames(), ", "))
	varsVar(d, &s.client.env, "vars", "environment variables for both programs")
	stringsVar(d, &s.serverSide.capNames, "cap_add", "Linux capabilities the server needs in a container")
	d.Duration(&s.client.timeout, "timeout", 10*time.Minute, "longest the client may take")
	d.Positive()
	d.Bytes(&s.client.maxOutput, "max_output", 16<<20, "most bytes of stdout and of stderr kept of each program")
	d.Min(1 << 10)
	declareServerImage(d, &s.img)
}

// serverConfig keeps these optional abilities (checked by the compiler).
var (
	_ workload.HostChecker  = (*serverConfig)(nil)
	_ workload.Requirer     = (*serverConfig)(nil)
	_ workload.UntilStopped = (*serverConfig)(nil)
)

func parseServer(p workload.Params) (*serverConfig, error) {
	return workload.Parse(p, &serverConfig{})
}

// Check implements workload.Checker.
func (s *serverConfig) Check() error {
	// The client is cmd with cmd = client; cap_add and files are the server's.
	if err := s.client.Check(); err != nil {
		msg := strings.Replace(err.Error(), "parameter cmd", "parameter client", 1)
		msg = strings.Replace(msg, "e.g. cmd: sysbench cpu --time=5 run (or boxtax run --cmd '...')", "e.g. client: wrk -d 5s http://{addr}/", 1)
		return errors.New(msg)
	}
	// The server's capabilities and files, checked as cmd checks them.
	sc := &s.serverSide
	sc.parseName, sc.timeout, sc.maxOutput, sc.env = "none", time.Second, s.client.maxOutput, s.client.env
	if err := sc.Check(); err != nil {
		return errors.New(strings.Replace(err.Error(), "parameter cmd", "parameter server", 1))
	}
	s.server = sc.argv
	s.client.caps, s.client.files = sc.caps, sc.files
	var err error
	if s.ready != "port" {
		if s.readyRe, err = regexp.Compile(s.ready); err != nil {
			return fmt.Errorf("parameter ready: %q is neither port nor a regular expression: %v", s.ready, err)
		}
	}
	proto := s.protocol
	switch proto {
	case "tcp", "udp":
		s.protocols = []string{proto}
	case "tcp+udp", "udp+tcp":
		s.protocols = []string{"tcp", "udp"}
	default:
		return fmt.Errorf("parameter protocol: %q; valid: tcp, udp, tcp+udp", proto)
	}
	switch {
	case proto == "udp" && s.readyRe == nil:
		return errors.New("parameter ready: a UDP server cannot be probed by connecting; give a regular expression for the line it prints when ready")
	}
	if s.img.port > 0 {
		return nil // it listens where it always does
	}
	for _, a := range s.server {
		if strings.Contains(a, "{port}") {
			return nil
		}
	}
	return fmt.Errorf("parameter server: %q does not say where to listen: put {port} (and {host}) in its arguments", Join(s.server))
}

// Normalize implements workload.Normalizer: both programs as absolute paths.
func (serverWorkload) Normalize(p workload.Params) (workload.Params, error) {
	if image, _ := p["image"].(string); image != "" {
		return normalize(p, "client") // the server is the image's
	}
	return normalize(p, "server", "client")
}

// MetricsFor implements workload.MetricDeclarer: the client's.
func (serverWorkload) MetricsFor(p workload.Params) []workload.Metric {
	s, err := parseServer(p)
	if err != nil {
		return baseMetrics()
	}
	return s.client.metricsOut()
}

// Requirements implements workload.Requirer: the server program (the
// client runs on the host, where its program is).
func (s *serverConfig) Requirements() workload.Requirements {
	r := workload.Requirements{HostFiles: s.client.files, CapAdd: s.client.caps}
	if s.img.name != "" {
		r.Image, r.ImageID, r.HostFiles = s.img.name, s.img.cfg.id, nil
	} else if len(s.server) > 0 && filepath.IsAbs(s.server[0]) {
		if interp := shebang(s.server[0]); len(interp) > 0 {
			r.HostPrograms = interp
			r.HostFiles = append(r.HostFiles, s.server[0])
		} else {
			r.HostPrograms = []string{s.server[0]}
		}
	}
	if slices.Contains(r.CapAdd, "SYS_NICE") {
		r.AddRealtime()
	}
	return r
}

// Protocols implements workload.Sides.
func (s *serverConfig) Protocols() []string { return s.protocols }

// CheckHost implements workload.HostChecker: both programs and the files
// are on this host.
func (s *serverConfig) CheckHost() error {
	if s.img.name != "" { // the server is the image's
		return checkHostFiles(s.client.files, command{"client", s.client.argv})
	}
	return checkHostFiles(s.client.files, command{"server", s.server}, command{"client", s.client.argv})
}

// ServerRunsUntilStopped implements workload.UntilStopped: a user's server
// does not know when its client is done.
func (*serverConfig) ServerRunsUntilStopped() {}

// substitute puts the address into a command's arguments.
func substitute(argv []string, host, port string) []string {
	r := strings.NewReplacer("{host}", host, "{port}", port, "{addr}", net.JoinHostPort(host, port))
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

// Serve implements workload.Sides: the server program listening at
// addr until ctx ends.
func (s *serverConfig) Serve(ctx context.Context, addr string, e workload.Emitter) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("the server's address %q: %w", addr, err)
	}
	if port == "0" {
		return errors.New("cmd.server needs its port chosen before it starts (the controller picks one)")
	}
	argv := substitute(s.server, host, port)
	e.Note("command", Join(argv))
	program := argv[0]
	if s.img.name != "" {
		program = imageProgram(program, imageEnv(s.img.cfg.env, s.client.env, os.TempDir()))
	}
	cmd := exec.Command(program, argv[1:]...)
	cmd.Env = programEnv(s.client.env, os.TempDir())
	cmd.Args[0] = argv[0] // as given, found on the image's PATH
	cmd.Dir = os.TempDir()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := s.serverCmdSetup(&cmd.Env, &cmd.Dir, cmd.SysProcAttr); err != nil {
		return err
	}
	// A pipe of our own (a file, so Wait returns when the server exits,
	// not when the last of its children lets go of its output).
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	defer pr.Close()
	out := &capped{max: s.client.maxOutput}
	var mu sync.Mutex
	cmd.Stdout, cmd.Stderr = pw, pw
	// The server stays in the worker's process group: natively the
	// controller ends a server's worker by killing that group, which so
	// takes the server's own children (workers, a shell's commands) too;
	// in a container they end with the container. Stopping it here
	// signals its whole process tree.
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return fmt.Errorf("starting the server %s: %w", argv[0], err)
	}
	lines := make(chan struct{})
	readDone := make(chan struct{})
	go func() { // every line kept (bounded); the ready line noticed
		defer close(readDone)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		seen := false
		for sc.Scan() {
			mu.Lock()
			_, _ = out.Write(append(sc.Bytes(), '\n'))
			mu.Unlock()
			if !seen && s.readyRe != nil && s.readyRe.Match(sc.Bytes()) {
				seen = true
				close(lines)
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	stop := func() error {
		tree := processTree(cmd.Process.Pid)
		signalAll(tree, syscall.SIGTERM)
		select {
		case err := <-waited:
			signalAll(tree[1:], syscall.SIGKILL) // children that outlived it (not its reaped pid)
			return err
		case <-time.After(5 * time.Second):
			signalAll(processTree(cmd.Process.Pid), syscall.SIGKILL)
			err := <-waited
			signalAll(tree[1:], syscall.SIGKILL)
			return err
		}
	}
	ended := func(err error) error {
		// The server has exited, but its last lines may still be in the
		// pipe: read them before saying what it printed (bounded, for a
		// child that outlived it and holds the pipe open).
		select {
		case <-readDone:
		case <-time.After(time.Second):
		}
		mu.Lock()
		defer mu.Unlock()
		how := "exited with status 0"
		if err != nil {
			how = err.Error()
		}
		return fmt.Errorf("the server ended before its client was done (%s); its output: %s", how, tail(nil, out.Bytes()))
	}
	// Ready: the line, or a connection to the port.
	deadline := time.NewTimer(s.readyTimeout)
	defer deadline.Stop()
	probe := time.NewTicker(50 * time.Millisecond)
	defer probe.Stop()
	dialHost := host
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		dialHost = "127.0.0.1"
	}
wait:
	for {
		select {
		case <-lines:
			break wait
		case <-probe.C:
			if s.readyRe != nil {
				continue
			}
			c, err := net.DialTimeout("tcp", net.JoinHostPort(dialHost, port), time.Second)
			if err == nil {
				c.Close()
				break wait
			}
		case err := <-waited:
			return ended(err)
		case <-deadline.C:
			_ = stop()
			mu.Lock()
			defer mu.Unlock()
			return fmt.Errorf("the server was not ready within %v (ready: %s); its output: %s", s.readyTimeout, readyWhat(s), tail(nil, out.Bytes()))
		case <-ctx.Done():
			_ = stop()
			return ctx.Err()
		}
	}
	e.Note(workload.NoteListening, addr)
	select {
	case err := <-waited:
		return ended(err)
	case <-ctx.Done():
	}
	// The controller stops the worker once the client is done (natively
	// with SIGKILL, which takes the server along: Pdeathsig).
	_ = stop()
	return nil
}

func readyWhat(s *serverConfig) string {
	if s.readyRe != nil {
		return "a line matching " + s.readyRe.String()
	}
	return "a TCP connection to its port"
}

// processTree is pid and its descendants, from /proc.
func processTree(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses
		rest := b[bytes.LastIndexByte(b, ')')+1:]
		f := strings.Fields(string(rest))
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			children[pp] = append(children[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

func signalAll(pids []int, sig syscall.Signal) {
	for _, p := range pids {
		_ = syscall.Kill(p, sig)
	}
}

// Client implements workload.Sides: the client program against addr,
// measured as cmd measures its program.
func (s *serverConfig) Client(ctx context.Context, addr string, e workload.Emitter) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("the server's address %q: %w", addr, err)
	}
	dir, err := os.MkdirTemp("", "boxtax-client-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c := s.client
	c.argv = substitute(c.argv, host, port)
	return c.measure(ctx, dir, e)
}

// Run implements workload.Config: both sides in this process over
// loopback.
func (w *serverConfig) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ready := &readyEmitter{ready: make(chan struct{})}
	served := make(chan error, 1)
	go func() { served <- w.Serve(sctx, addr, ready) }()
	select {
	case <-ready.ready:
	case err := <-served:
		return err
	}
	err = w.Client(ctx, addr, e)
	cancel()
	if serr := <-served; err == nil && serr != nil && !errors.Is(serr, context.Canceled) {
		err = serr
	}
	return err
}

type readyEmitter struct {
	once  sync.Once
	ready chan struct{}
}

func (r *readyEmitter) Sample(string, float64) {}
func (r *readyEmitter) Note(k, _ string) {
	if k == workload.NoteListening {
		r.once.Do(func() { close(r.ready) })
	}
}
