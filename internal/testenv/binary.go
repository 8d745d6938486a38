package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The binaries built by this test process, by GOARCH, and the directory
// that holds them.
var built struct {
	sync.Mutex
	dir    string
	paths  map[string]string
	errs   map[string]error
	inMain bool
	after  []func() // AfterAll's functions
}

// AfterAll registers f to run when every test of the package has ended
// (Main runs it, the last registered first): the cleanup of what several
// tests share, such as the fleet tests' devices. It reports false, and
// registers nothing, when the package's TestMain does not call Main; the
// caller then cleans up after its own test.
func AfterAll(f func()) bool {
	built.Lock()
	defer built.Unlock()
	if !built.inMain {
		return false
	}
	built.after = append(built.after, f)
	return true
}

// Boxtax builds the real boxtax binary for GOARCH goarch ("" for this
// machine's) once per test process, static (CGO_ENABLED=0) as it runs in
// containers, and returns its path. The package's TestMain calls Main,
// which removes it at the end.
func Boxtax(goarch string) (string, error) {
	built.Lock()
	defer built.Unlock()
	if p, ok := built.paths[goarch]; ok {
		return p, built.errs[goarch]
	}
	if built.paths == nil {
		built.paths, built.errs = map[string]string{}, map[string]error{}
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "boxtax-test-bin-")
		if err != nil {
			return "", err
		}
		built.dir = dir
	}
	name := "boxtax"
	if goarch != "" {
		name += "-" + goarch
	}
	p := filepath.Join(built.dir, name)
	cmd := exec.Command("go", "build", "-trimpath", "-o", p, "github.com/boxtax/boxtax/cmd/boxtax")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goarch != "" {
		cmd.Env = append(cmd.Env, "GOARCH="+goarch)
	}
	var err error
	if out, buildErr := cmd.CombinedOutput(); buildErr != nil {
		err = fmt.Errorf("building boxtax (GOARCH=%s): %v\n%s", goarch, buildErr, out)
	}
	built.paths[goarch], built.errs[goarch] = p, err
	return p, err
}

// BoxtaxBinary is Boxtax for this machine within a test: a failed build
// fails the test. It needs the package's TestMain to call Main, so that
// the binary does not outlive the test process.
func BoxtaxBinary(tb testing.TB) string {
	tb.Helper()
	built.Lock()
	inMain := built.inMain
	built.Unlock()
	if !inMain {
		tb.Fatal("testenv.BoxtaxBinary needs the package's TestMain to call testenv.Main, which removes the binary afterwards")
	}
	p, err := Boxtax("")
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Main runs the tests of m, as a TestMain does, then the functions
// AfterAll registered, removes the binaries Boxtax built, and exits with the
// tests' code.
func Main(m *testing.M) {
	built.Lock()
	built.inMain = true
	built.Unlock()
	code := m.Run()
	built.Lock()
	after := built.after
	built.after = nil
	built.Unlock()
	for i := len(after) - 1; i >= 0; i-- { // the last registered first, as t.Cleanup
		after[i]()
	}
	built.Lock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	built.Unlock()
	os.Exit(code)
}
