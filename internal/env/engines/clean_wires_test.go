package engines

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/wire"
)

// TestCleanRemovesTheWiresOfDeadProcesses: boxtax clean's leftovers outside
// the engines include the wires (network namespaces) of boxtax processes
// that no longer run, and the line that says so; env owns this clean-up,
// so the cli calls Clean alone.
func TestCleanRemovesTheWiresOfDeadProcesses(t *testing.T) {
	testenv.RequireNetns(t)
	ns := wire.NamePrefix + "4194001-1" // a pid above any this test meets
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Fatalf("ip netns add %s: %v: %s", ns, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "delete", ns).Run() })
	done, err := removeLeftovers(context.Background(), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(done, "\n")
	if !strings.Contains(said, "network namespace(s) of boxtax processes that no longer run") || !strings.Contains(said, ns) {
		t.Errorf("removeLeftovers said %q, want the namespace %s named as removed", said, ns)
	}
	if out, _ := exec.Command("ip", "netns", "list").Output(); strings.Contains(string(out), ns) {
		t.Errorf("%s is still there after removeLeftovers", ns)
	}
}
