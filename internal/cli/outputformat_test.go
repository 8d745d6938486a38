package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFileExtensionChoosesTheFormat is issue 27 item 6: -o FILE
// writes the format its extension names unless --format says it; a --format
// that contradicts the extension is refused and writes nothing; --format md
// is markdown.
func TestOutputFileExtensionChoosesTheFormat(t *testing.T) {
	dir := studyDir(t, "ext")
	storedStudy(t, filepath.Join(dir, "other.db"), "ext2", pi4, 1.1)
	valid := func(what string) func(string) bool {
		return func(s string) bool {
			switch what {
			case "html":
				return strings.HasPrefix(strings.TrimSpace(s), "<!DOCTYPE html>") || strings.HasPrefix(strings.TrimSpace(s), "<!doctype html>")
			case "markdown":
				return strings.Contains(s, "|---") || strings.Contains(s, "| ---") || strings.Contains(s, "|:--")
			case "csv":
				return strings.Count(strings.SplitN(s, "\n", 2)[0], ",") >= 3 && !strings.Contains(s, "|")
			case "json":
				return json.Valid([]byte(s))
			case "latex":
				return strings.Contains(s, `\begin{`) || strings.Contains(s, `\hline`) || strings.Contains(s, `\toprule`)
			case "table":
				return !strings.Contains(s, "<html") && !json.Valid([]byte(s)) && !strings.Contains(s, "|---")
			}
			return false
		}
	}
	for _, tt := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"report", "-o", "y.html"}, "y.html", "html"},
		{[]string{"report", "-o", "y.md"}, "y.md", "markdown"},
		{[]string{"report", "-o", "y.csv"}, "y.csv", "csv"},
		{[]string{"report", "-o", "y.json"}, "y.json", "json"},
		{[]string{"report", "-o", "y.tex"}, "y.tex", "latex"},
		{[]string{"report", "-o", "y.txt"}, "y.txt", "table"},
		{[]string{"report", "--format", "md", "-o", "z.md"}, "z.md", "markdown"},
		{[]string{"report", "--format", "md", "-o", "plain"}, "plain", "markdown"},
		{[]string{"compare", "boxtax.db", "other.db", "-o", "c.json"}, "c.json", "json"},
		{[]string{"compare", "boxtax.db", "other.db", "-o", "c.md"}, "c.md", "markdown"},
		{[]string{"analyze", "-o", "a.json"}, "a.json", "json"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			runOK(t, dir, tt.args...)
			b, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !valid(tt.want)(string(b)) {
				t.Errorf("%s is not %s:\n%.600s", tt.file, tt.want, b)
			}
		})
	}
	t.Run("format md to stdout", func(t *testing.T) {
		res := runOK(t, dir, "report", "--format", "md")
		if !valid("markdown")(res.stdout) {
			t.Errorf("--format md is not markdown:\n%s", res.stdout)
		}
	})
	for _, args := range [][]string{
		{"report", "--format", "csv", "-o", "bad.html"},
		{"report", "--format=table", "-o", "bad.json"},
		{"analyze", "-o", "bad.html"},
		// Issue 42 item 14: an extension no format has is refused, not
		// written as the text table.
		{"report", "-o", "bad.pdf"},
		{"report", "-o", "bad.xlsx"},
		{"compare", "boxtax.db", "other.db", "-o", "bad.xyz"},
		{"analyze", "-o", "bad.XYZ"},
	} {
		t.Run("refused "+strings.Join(args, " "), func(t *testing.T) {
			res := runIn(t, dir, args...)
			if res.code != ExitUsage {
				t.Fatalf("exit %d, want %d: %s", res.code, ExitUsage, res.stderr)
			}
			stderrSays(t, res, "-o bad.")
			if ext := filepath.Ext(args[len(args)-1]); formatByExtension[strings.ToLower(ext)] == "" {
				stderrSays(t, res, "no format has the extension "+ext, "table", "json", ".txt")
			}
			if _, err := os.Stat(filepath.Join(dir, args[len(args)-1])); err == nil {
				t.Errorf("%s was written", args[len(args)-1])
			}
		})
	}
}
