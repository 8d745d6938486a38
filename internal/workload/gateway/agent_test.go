package gateway

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// waitBody waits until the agent's body satisfies ok, at most 5 s.
func waitBody(t *testing.T, a *agent, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b := string(a.latest())
		if ok(b) {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent's body stayed %s", b)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startAgent parses the agent description and starts it with the period;
// the test fails if either fails.
func startAgent(t *testing.T, description string, period time.Duration) (*agent, func()) {
	t.Helper()
	spec, err := parseAgent(description)
	if err != nil {
		t.Fatal(err)
	}
	a := newAgent(spec, period)
	stop, err := a.start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return a, stop
}

// TestFileAgentReadsTheFile: the body is the file's content and follows it
// when it changes, as a sensor file in /sys does.
func TestFileAgentReadsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "temp")
	testenv.WriteFile(t, path, []byte("42123\n"), 0o644)
	a, stop := startAgent(t, "file:"+path, 10*time.Millisecond)
	defer stop()
	if got := string(a.latest()); got != `{"bn":"iam/","e":[{"n":"value","v":42123}]}` {
		t.Errorf("body %s", got)
	}
	testenv.WriteFile(t, path, []byte("43500\n"), 0o644)
	waitBody(t, a, func(b string) bool { return strings.Contains(b, `"v":43500`) })
	// A file that went away: the reading fails, the last body stays.
	os.Remove(path)
	deadline := time.Now().Add(5 * time.Second)
	for a.failed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if a.failed.Load() == 0 || !strings.Contains(string(a.latest()), "43500") || a.lastError() == nil {
		t.Errorf("after the file went: %d failures, body %s, last error %v", a.failed.Load(), a.latest(), a.lastError())
	}
}

// TestCommandAgentRunsTheCommand: the command runs at every period and its
// output is the reading; date's nanoseconds differ at every run.
func TestCommandAgentRunsTheCommand(t *testing.T) {
	date, err := exec.LookPath("date")
	if err != nil {
		t.Skip("no date here")
	}
	a, stop := startAgent(t, "command:"+date+" +%s%N", 10*time.Millisecond)
	if a.spec.program() != date {
		t.Errorf("program %q, want %q", a.spec.program(), date)
	}
	defer stop()
	first := string(a.latest())
	var doc senmlDoc
	if err := json.Unmarshal([]byte(first), &doc); err != nil || doc.Entries[0].Value == nil {
		t.Fatalf("body %s: %v", first, err)
	}
	if now := float64(time.Now().UnixNano()); *doc.Entries[0].Value < now-10e9 || *doc.Entries[0].Value > now {
		t.Errorf("the reading %v is not date's clock", *doc.Entries[0].Value)
	}
	waitBody(t, a, func(b string) bool { return b != first })
	if a.updates.Load() < 2 {
		t.Errorf("%d readings", a.updates.Load())
	}
}

// TestStreamAgentTakesEveryLine: a program that runs on and writes a
// reading per line, as the seed's sensor agent; it is stopped with the agent.
func TestStreamAgentTakesEveryLine(t *testing.T) {
	yes, err := exec.LookPath("yes")
	if err != nil {
		t.Skip("no yes here")
	}
	a, stop := startAgent(t, "stream:"+yes+" 21.5", time.Second)
	if got := string(a.latest()); got != `{"bn":"iam/","e":[{"n":"value","v":21.5}]}` {
		t.Errorf("body %s", got)
	}
	done := make(chan struct{})
	go func() { stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("stopping the agent did not end its program")
	}
}

func TestAgentErrors(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"sensor", "valid agents: simulated, file:PATH"},
		{"file:", "file needs a path"},
		{"command:", "command needs a program"},
		{"simulated:x", "takes no argument"},
	} {
		if _, err := parseAgent(tc.agent); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("agent %q: error %v, want one saying %q", tc.agent, err, tc.want)
		}
	}
	for _, tc := range []struct{ agent, want string }{
		{"file:/nonexistent/sensor", "no such file"},
		{"command:/nonexistent/sensor", "no such file"},
		{"command:/bin/false", "exit status 1"},
		{"stream:/bin/true", "ended without a reading"},
	} {
		spec, err := parseAgent(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		a := newAgent(spec, time.Second)
		if stop, err := a.start(t.Context()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("agent %q: error %v, want one saying %q", tc.agent, err, tc.want)
			if err == nil {
				stop()
			}
		}
	}
}

// TestCommandWithoutPath: a program named without a path is found in the
// usual directories when there is no PATH, as in a container of host
// programs.
func TestCommandWithoutPath(t *testing.T) {
	if _, err := os.Stat("/usr/bin/date"); err != nil {
		t.Skip("no /usr/bin/date here")
	}
	t.Setenv("PATH", "")
	a, stop := startAgent(t, "command:date +%s", time.Second)
	defer stop()
	if a.spec.argv[0] != "/usr/bin/date" && a.spec.argv[0] != "/bin/date" {
		t.Errorf("program %q", a.spec.argv[0])
	}
	if !strings.Contains(string(a.latest()), `"v":1`) {
		t.Errorf("body %s", a.latest())
	}
}
