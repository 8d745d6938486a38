// Package testenv holds what boxtax's tests need from the machine they run
// on, defined once: the Docker engine, a program from a Debian package,
// root, the real boxtax binary. Only tests import it.
//
// The rule for a test that cannot run here (issue 16): it skips and says
// what is missing and how to get it, except in CI (CI=true), which
// installs everything, where it fails with the same words. A test that
// skips in CI would pass without testing anything.
package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
)

// InCI reports whether the tests run in CI (CI=true), where none may skip
// for want of a program or a privilege.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing ends a test that cannot run here. what says what is missing and
// how to get it: the test skips saying so, or in CI fails saying so.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	what := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s; CI (CI=true) must run this test, so it fails instead of skipping", what)
	}
	tb.Skipf("skipped: %s", what)
}

// DoWithout lets a test go on without something it can do without, saying
// in its log what is missing and what the test leaves out, except in CI,
// where it fails as Missing does.
func DoWithout(tb testing.TB, format string, args ...any) {
	tb.Helper()
	what := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s; CI (CI=true) must run all of this test, so it fails instead", what)
	}
	tb.Log(what)
}

// SkipSlowComputation skips, in -short mode, a test that takes long and
// needs nothing but Go (a computation on data of its own): CI's main run
// runs it, and the stripped run (.ci/stripped.sh, -short), which hides the
// optional programs, would only repeat it, as nothing in it looks for them.
func SkipSlowComputation(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("%s: a slow computation that needs only Go, skipped in -short mode", what)
	}
}

// SkipShort skips an integration test in -short mode, except in CI.
func SkipShort(tb testing.TB, against string) {
	tb.Helper()
	if testing.Short() && !InCI() {
		tb.Skipf("integration test against %s: skipped in -short mode", against)
	}
}

// RequireTool returns the path of the program name (a name looked up in
// PATH, or an absolute path), or ends the test as Missing does, naming
// the Debian package that has it.
func RequireTool(tb testing.TB, name, debianPackage string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, "%s is not installed (Debian: apt-get install %s): %v", name, debianPackage, err)
	}
	return p
}

// RequireRoot ends the test as Missing does unless it runs as root; why
// says what needs it.
func RequireRoot(tb testing.TB, why string) {
	tb.Helper()
	if os.Geteuid() != 0 {
		Missing(tb, "not root: %s needs root (run the tests as root)", why)
	}
}

// Docker returns a client for the Docker engine, or the error that says
// why none answers.
func Docker() (*docker.Client, error) {
	c, err := docker.FromEnv()
	if err == nil {
		err = c.Ping(context.Background())
	}
	if err != nil {
		return nil, fmt.Errorf("no Docker engine answers (start dockerd, or set DOCKER_HOST): %w", err)
	}
	return c, nil
}

// RequireDocker returns a client for the Docker engine, or ends the test
// as Missing does when none answers.
func RequireDocker(tb testing.TB) *docker.Client {
	tb.Helper()
	c, err := Docker()
	if err != nil {
		Missing(tb, "%v", err)
	}
	return c
}

// RequireNetns ends the test as Missing does unless this process may make
// network namespaces and shape their links (root, ip and tc): what the
// netns wire needs.
func RequireNetns(tb testing.TB) {
	tb.Helper()
	RequireRoot(tb, "making network namespaces (the netns wire)")
	RequireTool(tb, "ip", "iproute2")
	RequireTool(tb, "tc", "iproute2")
}

// RequireChromium returns a headless Chromium, or ends the test as Missing
// does.
func RequireChromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Missing(tb, "no headless Chromium (chromium, chromium-browser or google-chrome) on PATH (Debian: apt-get install chromium)")
	return ""
}
