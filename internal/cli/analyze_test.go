package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnalyzeCSV(t *testing.T) {
	csv, _ := filepath.Abs(filepath.Join("..", "stats", "testdata", "lm", "thesis_like.csv"))
	res := runOK(t, t.TempDir(), "analyze", "--csv", csv, "--responses", "oh1,work,oh2,sleep",
		"--model", "deployment + kernel + load + deployment:kernel", "--reference", "deployment=native,kernel=vanilla,load=none", "--format", "json")
	var doc struct {
		Schema   string `json:"schema"`
		Analyses []struct {
			N      float64 `json:"n"`
			Manova map[string][]struct {
				Term string  `json:"term"`
				Stat float64 `json:"stat"`
			} `json:"manova"`
		} `json:"analyses"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, res.stdout)
	}
	if doc.Schema != "boxtax.analysis/v1" || len(doc.Analyses) != 1 || doc.Analyses[0].N != 240 {
		t.Fatalf("document %+v", doc)
	}
	if p := doc.Analyses[0].Manova["Pillai"]; len(p) != 4 || p[3].Term != "deployment:kernel" {
		t.Errorf("Pillai rows %+v", p)
	}
	table := runIn(t, t.TempDir(), "analyze", "--csv", csv, "--responses", "work", "--factors", "load,kernel")
	if table.code != ExitOK || !strings.Contains(table.stdout, "ANOVA of work") || strings.Contains(table.stdout, "MANOVA") {
		t.Errorf("exit %d\n%s%s", table.code, table.stdout, table.stderr)
	}
}

func TestAnalyzeUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--csv", "x.csv", "--responses", "y"}, "--csv needs --model"},
		{[]string{"--csv", "x.csv", "--db", "a.db"}, "leave out --db"},
		{[]string{"--unit", "slices"}, `--unit "slices"`},
		{[]string{"--format", "xml"}, "unknown format"},
		{[]string{"--reference", "kernel"}, "not factor=level"},
		{[]string{"--db", "missing.db"}, "no database at missing.db"},
		{[]string{"--study", "one"}, "not a study id"},
	} {
		res := runIn(t, dir, append([]string{"analyze"}, tt.args...)...)
		if res.code != ExitUsage || !strings.Contains(res.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, res.code, res.stderr, tt.want)
		}
	}
}
