package all_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// docsPath is the user documentation of the workloads, from this package.
var docsPath = filepath.Join("..", "..", "..", "docs", "workloads.md")

// TestDocsCoverEveryWorkload checks that docs/workloads.md has a section
// for every registered workload and names each of its parameters and
// metrics, so the documentation cannot silently fall behind the code.
func TestDocsCoverEveryWorkload(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatalf("reading the workload documentation: %v", err)
	}
	doc := string(b)
	for _, w := range workload.All() {
		info := w.Info()
		start := strings.Index(doc, "\n## "+info.Name+"\n")
		if start < 0 {
			t.Errorf("%s has no section \"## %s\" in %s", info.Name, info.Name, docsPath)
			continue
		}
		section := doc[start+1:]
		if end := strings.Index(section[3:], "\n## "); end >= 0 {
			section = section[:end+3]
		}
		for _, p := range info.Params {
			if !strings.Contains(section, "| `"+p.Name+"` |") {
				t.Errorf("%s: parameter %s is not in its table in %s", info.Name, p.Name, docsPath)
			}
		}
		for _, m := range info.Metrics {
			if !strings.Contains(section, "| `"+m.Name+"` | "+m.Unit+" |") {
				t.Errorf("%s: metric %s (%s) is not in its table in %s", info.Name, m.Name, m.Unit, docsPath)
			}
		}
	}
}
