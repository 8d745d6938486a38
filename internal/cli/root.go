package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/boxtax/boxtax/internal/termtext"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Exit codes, documented in docs/user-guide.md.
const (
	ExitOK         = 0
	ExitError      = 1 // something went wrong while working
	ExitUsage      = 2 // bad command line, unknown name, broken study file
	ExitRunsFailed = 3 // the study finished but some runs failed, or a command failed its check run; wins over ExitOverheadExceeded
	// ExitOverheadExceeded: a --max-overhead rule failed (an overhead beyond
	// noise above its limit, or nothing to check).
	ExitOverheadExceeded = 4
	ExitCrash            = 70  // a bug in boxtax: a Go panic (EX_SOFTWARE, crash.ExitCode: TestPanicExitsWithCrashCode); the stack goes to stderr
	ExitInterrupted      = 130 // Ctrl-C or SIGTERM; finished runs are kept
)

// Globals is the process state commands may touch.
type Globals struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Version        string
	Executable     string // the boxtax binary: runs as the worker
	IsTerminal     func(io.Writer) bool
	// Environ, when set, is the environment of the programs a command
	// starts for the user (fleet run's Ansible) in place of this
	// process's: tests that run side by side each give their own.
	Environ func() []string

	// collectFlags, when set, receives each flag set a command would parse,
	// and the command stops there (shell completion reads them).
	collectFlags func(*flag.FlagSet)
}

// usageError marks a problem with what the user asked for (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitError carries a specific exit code.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

type command struct {
	summary string
	run     func(ctx context.Context, g *Globals, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"run":        {"run a study (default: quick) and store every sample", runCmd},
		"report":     {"print a study's results: table, markdown, csv, json, latex or html with plots", reportCmd},
		"compare":    {"put studies side by side (other devices, other days) on the cells they share", compareCmd},
		"serve":      {"browse the studies of a database in a web browser (this machine only by default)", serveCmd},
		"analyze":    {"ANOVA/MANOVA with effect sizes and coefficients of a factorial study, or of a CSV", analyzeCmd},
		"merge":      {"merge the studies of other databases (other devices) into one: boxtax merge OUT.db IN.db...", mergeCmd},
		"fleet":      {"run a study on many devices with Ansible and merge the results: boxtax fleet run STUDY -i INVENTORY", fleetCmd},
		"list":       {"list workloads (or one: list workloads NAME), envs (with availability), env options or studies", listCmd},
		"sysinfo":    {"print the facts recorded about this machine", sysinfoCmd},
		"image":      {"build a local image from host programs: boxtax image from-host PATH...", imageCmd},
		"clean":      {"remove every container boxtax started and left behind; --images: the images it built", cleanCmd},
		"completion": {"print a shell completion script: boxtax completion bash|zsh|fish", completionCmd},
		"worker":     {"(internal) run one workload and print samples as JSON lines", workerCmd},
		"version":    {"print the version, commit, Go version and platform", versionCmd},
	}
}

// Execute runs the command line and returns the process exit code.
func Execute(ctx context.Context, g *Globals, args []string) int {
	cmds := commands()
	if len(args) == 0 {
		usage(g.Stderr, cmds)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) == 1 {
			usage(g.Stdout, cmds)
			return ExitOK
		}
		// boxtax help run, boxtax help fleet run: the command's own help.
		args = append(slices.Clone(args[1:]), "--help")
		if _, ok := cmds[args[0]]; !ok {
			fmt.Fprintf(g.Stderr, "boxtax help: unknown command %q%s; commands: %s\n", args[0], termtext.DidYouMean(args[0], publicCommands(cmds)), strings.Join(publicCommands(cmds), ", "))
			return ExitUsage
		}
	case "--version", "-V":
		if len(args) > 1 {
			fmt.Fprintf(g.Stderr, "boxtax: %s takes no arguments\n", args[0])
			return ExitUsage
		}
		args = []string{"version"}
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(g.Stderr, "boxtax: unknown command %q%s; commands: %s\n", args[0], termtext.DidYouMean(args[0], publicCommands(cmds)), strings.Join(publicCommands(cmds), ", "))
		return ExitUsage
	}
	err, crashed := runGuarded(ctx, g, cmd, args)
	if crashed {
		return ExitCrash
	}
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	fmt.Fprintf(g.Stderr, "boxtax %s: %s\n", args[0], termtext.Visible(err.Error())) // errors quote stored text and CSV headers
	var ee exitError
	var ue usageError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &ue):
		return ExitUsage
	}
	return ExitError
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintf(w, "boxtax measures what running software in containers costs on this machine.\n\nUsage: boxtax COMMAND [ARGS] [FLAGS]\n\nCommands:\n")
	names := publicCommands(cmds)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, cmds[n].summary)
	}
	fmt.Fprintf(w, "\nRun 'boxtax help COMMAND' (or 'boxtax COMMAND --help') for a command's flags; 'boxtax --version' for the version.\n"+
		"First steps: boxtax run && boxtax report\n")
}

// newFlags makes a flag set whose errors go to the command's stderr. Its
// help (-h, --help) goes to stdout; see parse.
func newFlags(g *Globals, name, argsUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(&flagOutput{g: g, name: name, argsUsage: argsUsage})
	fs.Usage = func() {} // parse prints the help, knowing why it is asked for
	return fs
}

// parseNoArgs is parse for a command that takes no positional argument:
// one is a usage error, which says what to use instead when hint is set
// (e.g. "use --study ID").
func parseNoArgs(fs *flag.FlagSet, args []string, hint string) error {
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0 && hint != "":
		return usagef("unexpected argument %q (%s)", pos[0], hint)
	case len(pos) > 0:
		return usagef("unexpected argument %q", pos[0])
	}
	return nil
}

// parse parses flags that may come before or after positional arguments.
// Asked for help, it prints it to stdout and returns flag.ErrHelp (exit 0);
// after a bad flag, it prints the help to stderr and returns a usage error.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	if o, ok := fs.Output().(*flagOutput); ok && o.g.collectFlags != nil {
		o.g.collectFlags(fs)
		return nil, flag.ErrHelp
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, parseError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// DefaultGlobals is the state of a real process.
func DefaultGlobals(version string) *Globals {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return &Globals{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version, Executable: exe, IsTerminal: isTerminal}
}

// runGuarded runs a command and turns a panic into a crash report on stderr
// (the panic and its stack), so a bug exits with ExitCrash instead of Go's 2,
// which would read as bad input.
func runGuarded(ctx context.Context, g *Globals, cmd command, args []string) (err error, crashed bool) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(g.Stderr, "boxtax %s: crashed (a bug in boxtax, please report it with this text): %v\n%s", args[0], p, debug.Stack())
			crashed = true
		}
	}()
	return cmd.run(ctx, g, args[1:]), false
}
