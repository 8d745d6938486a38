package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	_ "github.com/boxtax/boxtax/internal/workload/all"
)

// boxtaxBin is the real binary, built once: it is the worker natively and in
// the containers, exactly as in use.
var boxtaxBin string

func TestMain(m *testing.M) {
	bin, err := testenv.Boxtax("")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	boxtaxBin = bin
	testenv.Main(m)
}

// result is what one in-process command did.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs a boxtax command in-process, in dir.
func runIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runWith(t, dir, noTerminal, nil, args...)
}

// terminals says which of an in-process command's writers are terminals.
type terminals int

const (
	noTerminal     terminals = iota
	stdoutTerminal           // stdout only
	allTerminals             // stdout and stderr
)

// testGlobals are the Globals of a command run in-process by a test,
// writing to stdout and stderr, on no terminal, in the process's
// environment.
func testGlobals(stdout, stderr io.Writer) *Globals {
	return &Globals{Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Version: "test", Executable: boxtaxBin,
		IsTerminal: func(io.Writer) bool { return false }}
}

// runWith runs a boxtax command in-process, in dir ("": where the test
// runs); the writers that on names are terminals to it, and env's
// variables stand over the process's environment.
func runWith(t *testing.T, dir string, on terminals, env map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	g := testGlobals(&out, &errb)
	g.IsTerminal = func(w io.Writer) bool { return on == allTerminals || on == stdoutTerminal && w == io.Writer(&out) }
	g.Getenv = func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
	if dir != "" {
		wd, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(wd)
	}
	return result{Execute(context.Background(), g, undisturbed(args)), out.String(), errb.String()}
}

// undisturbed puts --disturbed off into a `run` or `fleet run` command
// line that does not set --disturbed itself. A test that is not about
// disturbed runs must not lose its runs to a shared machine: on the CI
// machine the hypervisor took 12-19 % of the CPUs' time during runs of
// TestAttributionEndToEnd (13 of 20 runs left out), and other programs
// kept a busy host's CPUs busy before every run of
// TestEndToEndNativeAndDocker (issue 42). The tests of the
// classification itself give --disturbed.
func undisturbed(args []string) []string {
	var verb int
	switch {
	case len(args) > 1 && args[0] == "fleet" && args[1] == "run":
		verb = 2
	case len(args) > 0 && args[0] == "run":
		verb = 1
	default:
		return args
	}
	for _, a := range args {
		if a == "--disturbed" || a == "-disturbed" || strings.HasPrefix(a, "--disturbed=") || strings.HasPrefix(a, "-disturbed=") {
			return args
		}
	}
	return slices.Concat(args[:verb], []string{"--disturbed", "off"}, args[verb:])
}

// studyDir is a new directory whose boxtax.db, the database commands run
// in it read by default, holds a finished study named name (storedStudy on
// epyc).
func studyDir(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "boxtax.db"), name, epyc, 1)
	return dir
}

// runOK is runIn for a command the test needs to succeed: the test stops
// unless the command exits ExitOK, showing its stderr and stdout.
func runOK(t *testing.T, dir string, args ...string) result {
	t.Helper()
	res := runIn(t, dir, args...)
	if res.code != ExitOK {
		t.Fatalf("boxtax %s: exit %d\nstderr: %s\nstdout: %s", strings.Join(args, " "), res.code, res.stderr, res.stdout)
	}
	return res
}

// runExits runs a boxtax command in-process in dir and wants it to exit
// with code, saying each of want on stderr; the test goes on either way.
func runExits(t *testing.T, dir string, code int, args []string, want ...string) result {
	t.Helper()
	res := runIn(t, dir, args...)
	if res.code != code {
		t.Errorf("boxtax %s: exit %d, want %d; stderr: %s", strings.Join(args, " "), res.code, code, res.stderr)
	}
	stderrSays(t, res, want...)
	return res
}

// stdoutSays reports each of want that res's stdout does not contain.
func stdoutSays(t *testing.T, res result, want ...string) {
	t.Helper()
	textSays(t, "stdout", res.stdout, want...)
}

// stderrSays reports each of want that res's stderr does not contain.
func stderrSays(t *testing.T, res result, want ...string) {
	t.Helper()
	textSays(t, "stderr", res.stderr, want...)
}

// textSays reports each of want that text, named what (stdout, a report),
// does not contain.
func textSays(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, text)
		}
	}
}

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// copyExecutable copies the program src to dst, executable by all.
func copyExecutable(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(dst, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
}
