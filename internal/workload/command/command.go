// Package command is the cmd workload: the user's own program (or one of
// the tools the seed studies used), run in each environment and measured
// the same way in all of them.
//
// The worker, already inside the environment, starts the program as its
// child in a scratch directory and waits for it with wait4: the wall time
// from fork to exit, the user and system CPU time and the peak resident
// set (ru_maxrss) all come from the kernel's accounting of that child, so
// natively and in a container they are read the same way and none of them
// includes starting the container. In a container the program runs from
// the worker's image, which holds it at the same path with its libraries
// (internal/hostimage), and the files the study names.
package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/workload"
)

// base are the metrics every run has, measured around the program.
var base = map[string]bool{"wall_s": true, "user_s": true, "sys_s": true, "maxrss_mib": true}

// Cmd is the cmd workload.
var Cmd = cmdWorkload{workload.NewSpec[config](workload.Info{
	Name:     "cmd",
	Summary:  "your own program (or sysbench, fio, stress-ng, cyclictest, mbw, iperf3, ab, wrk), run in each environment: time, CPU, memory and figures from its output",
	SeedTool: "any command",
	Metrics:  baseMetrics(),
})}

// cmdWorkload is cmd: its info and config, and what a user's program
// needs beside them (Normalize, MetricsFor, ImageOf, UseImage).
type cmdWorkload struct {
	workload.Spec[config, *config]
}

func init() { workload.Register(Cmd) }

// config is cmd's parameters, checked.
type config struct {
	image       string
	imageCfg    imageConfig // the image's Env and User (image.go)
	credential  *syscall.Credential
	argv, setup []string
	prepare     []string
	// placeholders are the values of {NAME} in the commands (nil in
	// cmd.server's client, whose {host}, {port} and {addr} are its own).
	placeholders map[string]string
	files        []string
	parseName    string // the parse parameter
	metrics      []any  // the metrics parameter's items
	extracts     []Extract
	replaced     []string // the adapter's metrics that extracts replace
	adapter      *adapter
	env          map[string]string
	capNames     []string // the cap_add parameter
	caps         []string
	timeout      time.Duration
	maxOutput    int64
	workdir      string // the workdir parameter
	home         string // HOME: the scratch directory, also with a workdir
}

// Declare implements workload.Declarer.
func (c *config) Declare(d *workload.Decl) {
	argvVar(d, &c.argv, "cmd", "the program and its arguments: a string split as a shell would split it (quotes, no expansion; write sh -c '...' for a shell) or a list; the program is looked up on PATH")
	d.Required()
	argvVar(d, &c.setup, "setup", "a command run before the timed one in the same directory, not measured (e.g. sysbench fileio ... prepare)")
	argvVar(d, &c.prepare, "prepare", "a command run right before each timed one (after setup), in the same environment and directory, not measured (as hyperfine's --prepare)")
	varsVar(d, &c.placeholders, "placeholders", "values of {NAME} in cmd, setup and prepare (a factor sets one with param: placeholders.NAME; boxtax run --param NAME=V1,V2)")
	stringsVar(d, &c.files, "files", "host files or directories the program needs in a container (at the same paths): programs it starts, data, configuration")
	d.String(&c.workdir, "workdir", "", "the directory the program runs in, natively and in a container, where relative paths in the command resolve (boxtax run --cmd: the current one when the command names a file in it); default: a new scratch directory, removed afterwards")
	d.String(&c.image, "image", "", "a local image (Docker or Podman) holding the program, to run it in instead of one made from this host's files; the boxtax binary is mounted into it")
	declareImage(d, &c.imageCfg)
	listVar(d, &c.metrics, "metrics", "figures read from its output: NAME[:UNIT][:higher|:lower]=REGEX or NAME=json:PATH, or mappings with name, unit, regex or json, higher_is_better")
	d.String(&c.parseName, "parse", "auto", "read a known tool's output: auto (by the program's name), none, "+strings.Join(AdapterNames(), ", "))
	varsVar(d, &c.env, "vars", "environment variables for the program (it gets PATH, HOME and these only)")
	stringsVar(d, &c.capNames, "cap_add", "Linux capabilities the program needs in a container, e.g. SYS_NICE (never more than asked)")
	d.Duration(&c.timeout, "timeout", 10*time.Minute, "longest a run may take; then it is stopped and fails")
	d.Positive()
	d.Bytes(&c.maxOutput, "max_output", 16<<20, "most bytes of stdout and of stderr kept; a program printing more fails the run")
	d.Min(1 << 10)
}

// config keeps these optional abilities (checked by the compiler).
var (
	_ workload.HostChecker   = (*config)(nil)
	_ workload.Requirer      = (*config)(nil)
	_ workload.FailureHinter = (*config)(nil)
	_ workload.Noter         = (*config)(nil)
)

// capabilities boxtax lets a command ask for; SYS_ADMIN, SYS_TIME (the
// host's clock, boxtax's timestamps) and the like are refused. NET_ADMIN
// in docker-host acts on the host's network: the user's to ask for.
var allowedCaps = []string{"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "IPC_LOCK", "KILL", "MKNOD",
	"NET_ADMIN", "NET_BIND_SERVICE", "NET_RAW", "SETGID", "SETUID", "SYS_NICE", "SYS_PTRACE", "SYS_RESOURCE"}

// parse reads cmd's parameters.
func parse(p workload.Params) (*config, error) { return workload.Parse(p, &config{}) }

// Check implements workload.Checker: the command, the adapter that reads
// its output, the figures, the capabilities and the limits.
func (c *config) Check() error {
	var err error
	if len(c.argv) == 0 {
		return errors.New("parameter cmd: no command given; e.g. cmd: sysbench cpu --time=5 run (or boxtax run --cmd '...')")
	}
	if err := c.substitute(); err != nil {
		return err
	}
	if c.adapter, err = adapterFor(c.parseName, c.argv); err != nil {
		return err
	}
	if err := c.checkMetrics(); err != nil {
		return err
	}
	c.caps = nil
	for _, cp := range c.capNames {
		cp = strings.ToUpper(strings.TrimPrefix(strings.ToUpper(cp), "CAP_"))
		if !slices.Contains(allowedCaps, cp) {
			return fmt.Errorf("parameter cap_add: %q is not a capability a command may ask for; valid: %s", cp, strings.Join(allowedCaps, ", "))
		}
		c.caps = append(c.caps, cp)
	}
	if c.adapter != nil && c.adapter.check != nil {
		if err := c.adapter.check(c.argv); err != nil {
			return err
		}
	}
	if c.adapter != nil && c.adapter.caps != nil {
		c.caps = append(c.caps, c.adapter.caps(c.argv)...)
	}
	slices.Sort(c.caps)
	c.caps = slices.Compact(c.caps)
	return nil
}

// Normalize implements workload.Normalizer: the program (and setup's) as
// an absolute path, found on PATH or in the usual directories, and the
// files as absolute paths, so the worker runs the same file natively and
// in a container, wherever its working directory is.
func (cmdWorkload) Normalize(p workload.Params) (workload.Params, error) {
	p, err := substituteParams(p, "cmd", "setup", "prepare")
	if err != nil {
		return nil, err
	}
	if image, _ := p["image"].(string); image != "" {
		// The program is the image's, found on its PATH (and natively
		// on this host's) when it runs.
		return normalize(p)
	}
	return normalize(p, "cmd", "setup", "prepare")
}

// normalize is p with the named commands' programs as absolute paths
// (normalProgram) and the files as absolute paths.
func normalize(p workload.Params, commands ...string) (workload.Params, error) {
	out := workload.Params{}
	for k, v := range p {
		out[k] = v
	}
	for _, name := range commands {
		argv, err := argvParam(p, name)
		if err != nil {
			return nil, err
		}
		if len(argv) == 0 {
			continue
		}
		abs, err := normalProgram(argv[0])
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", name, err)
		}
		out[name] = anyList(append([]string{abs}, argv[1:]...))
	}
	files, err := absFiles(p)
	if err != nil {
		return nil, err
	}
	out["files"] = files
	if wd, _ := p["workdir"].(string); wd != "" {
		if out["workdir"], err = filepath.Abs(wd); err != nil {
			return nil, fmt.Errorf("parameter workdir: %w", err)
		}
	}
	return out, nil
}

// absFiles is the files parameter with absolute paths, each one there.
func absFiles(p workload.Params) ([]any, error) {
	files, err := stringsParam(p, "files")
	if err != nil {
		return nil, err
	}
	out := make([]any, len(files))
	for i, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return nil, fmt.Errorf("parameter files: %s: %w", f, err)
		}
		out[i] = a
	}
	return out, nil
}

// command is a command parameter's name and its words.
type command struct {
	name string
	argv []string
}

// checkHostFiles makes sure the programs and files are on this host
// (the controller's check; Normalize does not look, see normalProgram).
func checkHostFiles(files []string, programs ...command) error {
	for _, p := range programs {
		if len(p.argv) > 0 {
			if _, err := findProgram(p.argv[0]); err != nil {
				return fmt.Errorf("parameter %s: %w", p.name, err)
			}
		}
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("parameter files: %w", err)
		}
	}
	return nil
}

// normalProgram is findProgram for Normalize, which the worker calls
// again inside the environment: an absolute path is left as it is (in a
// container it may be in the image only, or not needed there at all: a
// client's), and so is a name not found here. Either is checked on the
// controller by CheckHost, before a study's first run: a spec is valid
// whether or not this host has its programs (issue 25).
func normalProgram(name string) (string, error) {
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	if p, err := findProgram(name); err == nil {
		return p, nil
	}
	if strings.Contains(name, "/") {
		return filepath.Abs(name)
	}
	return name, nil
}

// findProgram is workload.FindProgram, or an error saying why there is
// none and how to install it.
func findProgram(name string) (string, error) {
	if p := workload.FindProgram(name); p != "" {
		return p, nil
	}
	if strings.Contains(name, "/") {
		abs, _ := filepath.Abs(name)
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("program %s: %w", name, err)
		}
		return "", fmt.Errorf("program %s is not an executable file", abs)
	}
	install := "install it"
	if a, ok := adapters[name]; ok && a.debian != "" {
		install = "install it (Debian: apt-get install " + a.debian + ")"
	}
	return "", fmt.Errorf("program %q is not on this host: not found in PATH (%s) nor in %s: %s or give its path", name, os.Getenv("PATH"), strings.Join(workload.ProgramDirs, ", "), install)
}

// Requirements implements workload.Requirer: the program and setup's, the
// named files, and the capabilities asked for.
func (c *config) Requirements() workload.Requirements {
	var r workload.Requirements
	if c.image != "" {
		r.Image, r.ImageID = c.image, c.imageCfg.id
	} else {
		r.HostFiles = c.files
		for _, argv := range [][]string{c.argv, c.setup, c.prepare} {
			if len(argv) == 0 || !filepath.IsAbs(argv[0]) {
				continue
			}
			if interp := shebang(argv[0]); len(interp) > 0 {
				// A script: its interpreter is the program, the script a file.
				r.HostPrograms = append(r.HostPrograms, interp...)
				r.HostFiles = append(r.HostFiles, argv[0])
				continue
			}
			r.HostPrograms = append(r.HostPrograms, argv[0])
		}
	}
	r.CapAdd = c.caps
	if slices.Contains(c.caps, "SYS_NICE") {
		r.AddRealtime() // as rt.periodic: the kernel's own default budget
	}
	return r
}

// shebang is the interpreter a script names on its #! line (with the
// program /usr/bin/env finds, for #!/usr/bin/env python3), nil for a
// file that is not a script.
func shebang(path string) []string {
	words := hashBang(path)
	if len(words) == 0 || !filepath.IsAbs(words[0]) {
		return nil
	}
	out := []string{words[0]}
	if filepath.Base(words[0]) == "env" && len(words) > 1 {
		if p, err := findProgram(words[1]); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// hashBang is the words of a script's #! line, nil for a file that is
// not a script.
func hashBang(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) {
		return nil
	}
	return strings.Fields(string(line[2:]))
}

// CheckHost implements workload.HostChecker: the program is here.
func (c *config) CheckHost() error {
	if c.image != "" {
		return nil // the image's program and files; natively the host's, found when it runs
	}
	if err := checkWorkdir(c.workdir); err != nil {
		return err
	}
	return checkHostFiles(c.files, command{"cmd", c.argv}, command{"setup", c.setup}, command{"prepare", c.prepare})
}

// Run implements workload.Config: setup, then prepare, then the timed
// command, all in the run's directory (workdir, else the scratch
// directory); only the last is measured.
func (c *config) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	dir, err := c.dir(env.ScratchDir)
	if err != nil {
		return err
	}
	c.home = env.ScratchDir
	if c.image != "" {
		if c.credential, err = imageCredential(c.imageCfg.user); err != nil {
			return err
		}
		if c.credential != nil { // the scratch directory is the program's
			_ = os.Chown(env.ScratchDir, int(c.credential.Uid), int(c.credential.Gid))
		}
		if err := makeVolumes(c.imageCfg.volumes, c.credential); err != nil {
			return err
		}
	}
	for _, before := range []command{{"setup", c.setup}, {"prepare", c.prepare}} {
		if len(before.argv) == 0 {
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, c.timeout)
		_, err := c.exec(sctx, before.argv, dir, before.name)
		cancel()
		if err != nil {
			return err
		}
	}
	return c.measure(ctx, dir, e)
}

// measure runs the program in dir and reports what it cost and printed.
func (c config) measure(ctx context.Context, dir string, e workload.Emitter) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	argv := c.argv
	if c.adapter != nil && c.adapter.args != nil {
		argv = c.adapter.args(slices.Clone(argv))
	}
	e.Note("command", Join(argv))
	if c.adapter != nil {
		e.Note("parse", c.adapter.name)
	}
	res, err := c.exec(ctx, argv, dir, "")
	if err != nil {
		return err
	}
	e.Sample("wall_s", res.wall.Seconds())
	e.Sample("user_s", res.user.Seconds())
	e.Sample("sys_s", res.sys.Seconds())
	e.Sample("maxrss_mib", float64(res.maxRSSKiB)/1024)
	if notes := c.Notes(); len(notes) > 0 {
		e.Note("metric_replaced", strings.Join(notes, "; "))
	}
	if c.adapter != nil {
		vals, err := c.adapter.parse(res.stdout, res.stderr)
		if err != nil {
			return fmt.Errorf("%w; its output: %s", err, tail(res.stdout, res.stderr))
		}
		for _, mt := range c.adapterMetrics() { // in declaration order
			if v, ok := vals[mt.Name]; ok {
				e.Sample(mt.Name, v)
			}
		}
	}
	for _, x := range c.extracts {
		v, err := x.value(res.stdout, res.stderr)
		if err != nil {
			return fmt.Errorf("%w; its output: %s", err, tail(res.stdout, res.stderr))
		}
		e.Sample(x.Name, v)
	}
	return nil
}

// programEnv is a program's environment: PATH (the worker's, else the
// usual directories), HOME and the vars asked for, nothing else.
func programEnv(vars map[string]string, home string) []string {
	var own []string
	if path := os.Getenv("PATH"); path != "" {
		own = []string{"PATH=" + path}
	}
	return imageEnv(own, vars, home)
}

type result struct {
	wall, user, sys time.Duration
	maxRSSKiB       int64
	stdout, stderr  []byte
}

// exec runs argv in dir, in its own process group (a stop reaches its
// children), and waits for it.
func (c config) exec(ctx context.Context, argv []string, dir, what string) (result, error) {
	home := c.home
	if home == "" {
		home = dir
	}
	program := argv[0]
	if c.image != "" {
		program = imageProgram(program, imageEnv(c.imageCfg.env, c.env, home))
	}
	cmd := exec.Command(program, argv[1:]...)
	cmd.Dir = dir
	cmd.Args[0] = argv[0] // as given, found on the image's PATH
	cmd.Env = programEnv(c.env, home)
	if c.image != "" {
		cmd.Env = imageEnv(c.imageCfg.env, c.env, home)
	}
	// Pipes of our own (files, so exec starts no copying goroutines):
	// Wait then returns when the program exits, not when the last process
	// holding its output (a background child, a daemon) lets go, so the
	// wall time is the program's and the timeout holds.
	stdout, stderr := &capped{max: c.maxOutput}, &capped{max: c.maxOutput}
	outR, outW, err := os.Pipe()
	if err != nil {
		return result{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return result{}, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: c.credential}
	label := "the program"
	if what != "" {
		label = "the " + what + " command"
	}
	start := time.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return result{}, fmt.Errorf("starting %s %s: %w", label, argv[0], err)
	}
	var copying sync.WaitGroup
	for _, p := range []struct {
		r *os.File
		w *capped
	}{{outR, stdout}, {errR, stderr}} {
		copying.Add(1)
		go func() {
			defer copying.Done()
			_, _ = io.Copy(p.w, p.r)
		}()
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
	stopped := false
	select {
	case werr = <-waited:
	case <-ctx.Done():
		stopped = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case werr = <-waited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			werr = <-waited
		}
	}
	wall := time.Since(start)
	// Whatever the program left behind in its group goes with it; then
	// the output is read to its end, or for at most 2 s when something
	// outside the group (a daemon of its own session) still holds it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	drained := make(chan struct{})
	go func() { copying.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(2 * time.Second):
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()
	res := result{wall: wall, stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.user = time.Duration(ru.Utime.Nano())
		res.sys = time.Duration(ru.Stime.Nano())
		res.maxRSSKiB = int64(ru.Maxrss) // int32 on 32-bit ARM
	}
	switch {
	case stopped && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return res, fmt.Errorf("%s did not end within its timeout of %v and was stopped; its output: %s", label, c.timeout, tail(res.stdout, res.stderr))
	case stopped:
		return res, ctx.Err()
	case stdout.over || stderr.over:
		return res, fmt.Errorf("%s printed more than %d bytes on stdout or stderr (max_output): raise the cmd workload's parameter max_output (in a study file, params: {max_output: 64MiB}) or send its output elsewhere", label, c.maxOutput)
	case werr != nil:
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return res, fmt.Errorf("%s was killed by signal %v; its stderr: %s", label, ws.Signal(), tail(nil, res.stderr))
			}
			return res, fmt.Errorf("%s exited with status %d; its output: %s", label, ee.ExitCode(), tail(res.stdout, res.stderr))
		}
		return res, fmt.Errorf("%s: %w", label, werr)
	}
	return res, nil
}

// capped keeps the first max bytes written and notes whether there were more.
type capped struct {
	buf  bytes.Buffer
	max  int64
	over bool
}

func (w *capped) Write(p []byte) (int, error) {
	room := w.max - int64(w.buf.Len())
	if int64(len(p)) > room {
		w.over = true
		if room > 0 {
			w.buf.Write(p[:room])
		}
		return len(p), nil // keep reading, so the program is not blocked or killed by a full pipe
	}
	return w.buf.Write(p)
}

func (w *capped) Bytes() []byte { return w.buf.Bytes() }

// outputQuoted is how much of a program's output a failure quotes: its
// first and its last outputQuoted/2 bytes.
const outputQuoted = 1200

// tail is how stderr, else stdout, began and ended, on one line: the first
// error is often the one that says why, the last lines what happened last
// (hostprog.KeepEnds, as the worker quotes its own stderr).
func tail(stdout, stderr []byte) string {
	src := bytes.TrimSpace(stderr)
	if len(src) == 0 {
		src = bytes.TrimSpace(stdout)
	}
	if len(src) == 0 {
		return "(nothing)"
	}
	kept := hostprog.KeepEnds(outputQuoted)
	_, _ = kept.Write(src)
	return strings.ReplaceAll(strings.TrimSpace(kept.String()), "\n", " | ")
}
