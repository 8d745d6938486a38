package cli

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestUserGuideListsEveryCommand is issue 27 item 9: the user guide's
// command table has a row for every command, internal ones included, and
// README links to "Your own program in three steps" near its top.
func TestUserGuideListsEveryCommand(t *testing.T) {
	guide, err := os.ReadFile("../../docs/user-guide.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(guide), "## Commands and exit codes")
	if !ok {
		t.Fatal("the user guide has no section Commands and exit codes")
	}
	for _, name := range sortedKeys(commands()) {
		if !strings.Contains(table, "| `boxtax "+name) && !strings.Contains(table, ", `boxtax "+name) {
			t.Errorf("the user guide's command table has no row for boxtax %s", name)
		}
	}
	if !strings.Contains(string(guide), "\n## Your own program in three steps\n") {
		t.Error("the user guide has no section Your own program in three steps")
	}
	// The warm-up round is described as run --help describes it.
	for _, c := range commandFlagSets(context.Background(), &Globals{Getenv: os.Getenv}) {
		if f := c.Flags.Lookup("warmup"); f != nil && c.Words[0] == "run" {
			words, _, _ := strings.Cut(f.Usage, " (default")
			if !strings.Contains(string(guide), words) {
				t.Errorf("the user guide does not describe the warm-up rounds as run --help does: %q", words)
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(string(readme), "(docs/user-guide.md#your-own-program-in-three-steps)"); i < 0 || i > 2000 {
		t.Errorf("README does not link to Your own program in three steps near its top (at %d)", i)
	}
}
