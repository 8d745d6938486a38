package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/fleet"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestControlCharactersAreShownNotObeyed is issue 25 item 21: escape
// sequences in a stored study's name and a failed run's reason, and in the
// headers of a user's CSV file, reach the terminal made visible, never raw:
// in report's text formats (to a file as well), list, compare, analyze,
// their error messages, the fleet summary, and any format printed on a
// terminal.
func TestControlCharactersAreShownNotObeyed(t *testing.T) {
	dir := t.TempDir()
	const evil = "\x1b]0;pwned\x07\x1b[2J"
	const shown = `\x1b]0;pwned\x07\x1b[2J`
	db := filepath.Join(dir, "boxtax.db")
	storedStudy(t, filepath.Join(dir, "other.db"), "other", pi4, 0.25)
	storedStudyFailing(t, db, "study"+evil, "exit 1: boom"+evil)
	csv, _ := filepath.Abs(filepath.Join("..", "stats", "testdata", "lm", "thesis_like.csv"))
	b, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	evilCSV := filepath.Join(dir, "evil.csv")
	if err := os.WriteFile(evilCSV, bytes.Replace(b, []byte("work"), []byte("work"+evil), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		terminal terminals
		stderr   bool   // the escape is in stderr (an error), not stdout
		file     string // the output is in this file
	}{
		{"report table", []string{"report"}, noTerminal, false, ""},
		{"report table to a file", []string{"report", "-o", "r.txt"}, noTerminal, false, "r.txt"},
		{"report markdown", []string{"report", "--format", "markdown"}, noTerminal, false, ""},
		{"report latex on a terminal", []string{"report", "--format", "latex"}, stdoutTerminal, false, ""},
		{"list studies", []string{"list", "studies", "--db", "boxtax.db"}, noTerminal, false, ""},
		{"compare", []string{"compare", "boxtax.db", "other.db"}, noTerminal, false, ""}, // names quoted: \a for BEL
		{"analyze a CSV", []string{"analyze", "--csv", evilCSV, "--responses", "work" + evil, "--factors", "load,kernel"}, noTerminal, false, ""},
		{"a CSV header in an error", []string{"analyze", "--csv", evilCSV, "--responses", "nothing", "--factors", "load,kernel"}, noTerminal, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runWith(t, dir, tt.terminal, nil, tt.args...)
			out := r.stdout
			if tt.stderr {
				out = r.stderr
			} else if r.code != ExitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if tt.file != "" {
				b, err := os.ReadFile(filepath.Join(dir, tt.file))
				if err != nil {
					t.Fatal(err)
				}
				out = string(b)
			}
			if strings.ContainsAny(r.stdout+r.stderr+out, "\x1b\x07") {
				t.Errorf("raw control characters reach the terminal:\n%q", out)
			}
			if want := shown; !strings.Contains(out, want) && (tt.name != "compare" || !strings.Contains(out, `\x1b]0;pwned\a\x1b[2J`)) {
				t.Errorf("the escape should be shown as %s:\n%s", want, out)
			}
		})
	}
	t.Run("fleet summary", func(t *testing.T) {
		var b strings.Builder
		writeFleetSummary(&b, &fleet.Summary{Hosts: []fleet.Device{{Host: "pi", Status: "failed", Reason: "running the study: " + evil}}})
		if strings.ContainsAny(b.String(), "\x1b\x07") || !strings.Contains(b.String(), shown) {
			t.Errorf("fleet summary: %q", b.String())
		}
	})
}

// storedStudyFailing stores a finished study named name whose second run
// failed with reason.
func storedStudyFailing(t *testing.T, path, name, reason string) {
	t.Helper()
	storedStudy(t, path, name, epyc, 1)
	_, runs, _ := testenv.Stored(t, path)
	r := runs[1]
	r.Status, r.Reason = store.RunFailed, reason
	db := testenv.OpenStore(t, path)
	defer db.Close()
	if err := db.FinishRun(context.Background(), &r, nil, nil); err != nil {
		t.Fatal(err)
	}
}
