package cli

import (
	"strings"
	"testing"
)

// report ends its study in a verdict before the table, and --precision
// sets its margin: the stored study's docker-bridge is 5 % slower in every
// metric, a cost at ±2 % and at ±10 % alike; an undecided or equal cell
// would change with it.
func TestReportPrintsTheVerdict(t *testing.T) {
	dir := studyDir(t, "verdict")
	res := runIn(t, dir, "report")
	if res.code != ExitOK {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	verdict, table, ok := strings.Cut(res.stdout, "native: mean (sd)")
	if !ok || !strings.Contains(verdict, "verdict, each environment against native (95% intervals; no difference: the whole interval within ±2%)") ||
		!strings.Contains(verdict, "docker-bridge  cpu.prime") || !strings.Contains(verdict, "costs 5.0% [") || !strings.Contains(table, "cpu.prime") {
		t.Errorf("the verdict does not come first:\n%s", res.stdout)
	}
	wide := runIn(t, dir, "report", "--precision", "10%", "--format", "json")
	if wide.code != ExitOK || !strings.Contains(wide.stdout, `"margin_pct": 10`) || strings.Contains(wide.stdout, `"margin_pct": 2`) {
		t.Errorf("--precision 10%%: exit %d\n%s", wide.code, wide.stderr)
	}
	if bad := runIn(t, dir, "report", "--precision", "0"); bad.code != ExitUsage || !strings.Contains(bad.stderr, "above 0 and at most 100") {
		t.Errorf("--precision 0: exit %d: %s", bad.code, bad.stderr)
	}
}
