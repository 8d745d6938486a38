package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	_ "github.com/boxtax/boxtax/internal/workload/all"
)

// boxtaxBin is the real binary, built once: it is the worker natively and in
// the containers, exactly as in use.
var boxtaxBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boxtax-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	boxtaxBin = filepath.Join(dir, "boxtax")
	build := exec.Command("go", "build", "-trimpath", "-o", boxtaxBin, "github.com/boxtax/boxtax/cmd/boxtax")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building boxtax: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one in-process command did.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs a boxtax command in-process, in dir.
func runIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	g := &Globals{Stdout: &out, Stderr: &errb, Getenv: os.Getenv, Version: "test", Executable: boxtaxBin,
		IsTerminal: func(io.Writer) bool { return false }}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code := Execute(context.Background(), g, args)
	return result{code, out.String(), errb.String()}
}

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
