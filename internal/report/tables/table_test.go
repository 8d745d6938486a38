package tables

import (
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
)

// Cells with fewer than two runs are named when there are a few and counted
// in one line when there are many (a study run with --reps 1).
func TestThinCellsNamedOrCounted(t *testing.T) {
	few := &report.Report{Cells: []report.Cell{
		{Workload: "cpu.prime", Env: "native", Label: "events/s", N: 1, Levels: map[string]string{"instances": "2"}},
		{Workload: "cpu.prime", Env: "native", Label: "events/s", N: 3},
	}}
	var b strings.Builder
	writeThinCells(&b, few)
	if got := b.String(); got != "\nnote: cpu.prime native events/s (instances=2) has 1 measured run(s): no spread or interval." {
		t.Errorf("a few: %q", got)
	}
	many := &report.Report{}
	for i := range 40 {
		many.Cells = append(many.Cells, report.Cell{Workload: "w", Env: "native", Label: "x", N: i % 2, Levels: map[string]string{"n": strconv.Itoa(i)}})
	}
	many.Cells = append(many.Cells, report.Cell{Workload: "w", Env: "native", Label: "x", N: 5})
	b.Reset()
	writeThinCells(&b, many)
	want := "\nnote: 40 of 41 cells have fewer than 2 measured runs (20 none, 20 one): no spread or interval there; more repetitions (--reps) give them."
	if b.String() != want {
		t.Errorf("many:\n%q\nwant\n%q", b.String(), want)
	}
}
