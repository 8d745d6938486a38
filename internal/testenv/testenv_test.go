package testenv

import (
	"fmt"
	"strings"
	"testing"
)

// recordingTB notes how a test would have ended instead of ending it: the
// first of a failure, a skip or a log line, as a real test ends at the
// first failure or skip.
type recordingTB struct {
	testing.TB
	ended, said string // "fail", "skip" or "log", and the words
}

func (r *recordingTB) end(how, said string) {
	if r.ended == "" {
		r.ended, r.said = how, said
	}
}

func (r *recordingTB) Helper()                           {}
func (r *recordingTB) Fatalf(format string, args ...any) { r.end("fail", fmt.Sprintf(format, args...)) }
func (r *recordingTB) Skipf(format string, args ...any)  { r.end("skip", fmt.Sprintf(format, args...)) }
func (r *recordingTB) Log(args ...any)                   { r.end("log", fmt.Sprint(args...)) }

// TestTheCIRule: what is missing skips the test elsewhere and fails it in
// CI, saying what is missing and how to get it either way; what a test can
// do without is logged elsewhere and fails it in CI.
func TestTheCIRule(t *testing.T) {
	for _, tt := range []struct {
		ci, want string
		end      func(tb testing.TB)
	}{
		{"", "skip", func(tb testing.TB) { RequireTool(tb, "boxtax-no-such-program", "boxtax-pkg") }},
		{"true", "fail", func(tb testing.TB) { RequireTool(tb, "boxtax-no-such-program", "boxtax-pkg") }},
		{"false", "skip", func(tb testing.TB) { RequireTool(tb, "boxtax-no-such-program", "boxtax-pkg") }},
		{"", "log", func(tb testing.TB) { DoWithout(tb, "boxtax-no-such-program: apt-get install boxtax-pkg") }},
		{"true", "fail", func(tb testing.TB) { DoWithout(tb, "boxtax-no-such-program: apt-get install boxtax-pkg") }},
	} {
		t.Run(tt.want+" CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recordingTB{TB: t}
			tt.end(r)
			if r.ended != tt.want {
				t.Errorf("ended with %q (%s), want %q", r.ended, r.said, tt.want)
			}
			for _, w := range []string{"boxtax-no-such-program", "apt-get install boxtax-pkg"} {
				if !strings.Contains(r.said, w) {
					t.Errorf("%q does not say %q", r.said, w)
				}
			}
			if tt.want == "fail" && !strings.Contains(r.said, "CI=true") {
				t.Errorf("%q does not say that CI must run it", r.said)
			}
		})
	}
}

// TestRequireToolFindsPrograms: a program on PATH or at an absolute path
// is found, and its path returned.
func TestRequireToolFindsPrograms(t *testing.T) {
	r := &recordingTB{TB: t}
	if p := RequireTool(r, "sh", "dash"); r.ended != "" || !strings.HasSuffix(p, "/sh") {
		t.Errorf("sh: %q, ended %q (%s)", p, r.ended, r.said)
	}
	if p := RequireTool(r, "/bin/sh", "dash"); r.ended != "" || p != "/bin/sh" {
		t.Errorf("/bin/sh: %q, ended %q (%s)", p, r.ended, r.said)
	}
}
