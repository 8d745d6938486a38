package report

import (
	"fmt"
	"sort"
	"strings"
)

// WarnDisturbed is the warning group of the measured runs the monitors saw
// on a disturbed host (monitor.DisturbLimits), left out of the verdicts.
const WarnDisturbed = "disturbed"

// warnDisturbed puts first among the warnings how many measured runs were
// disturbed and left out, by cause, and the cell with most: "disturbed
// host: 3 measured run(s) left out of the verdicts (steal 2, busy 1); most
// in cpu.prime @ docker-bridge (2); first: run 7: steal: ...".
func (r *Report) warnDisturbed() {
	if len(r.Disturbed) == 0 {
		return
	}
	causes, perCell := map[string]int{}, map[string]int{}
	var cells []string
	for _, d := range r.Disturbed {
		cause, _, _ := strings.Cut(d.Reason, ":")
		causes[cause]++
		cell := d.Workload + " @ " + d.Env
		if perCell[cell] == 0 {
			cells = append(cells, cell)
		}
		perCell[cell]++
	}
	var byCause []string
	for c, n := range causes {
		byCause = append(byCause, fmt.Sprintf("%s %d", c, n))
	}
	sort.Strings(byCause)
	most := cells[0]
	for _, c := range cells {
		if perCell[c] > perCell[most] {
			most = c
		}
	}
	first := r.Disturbed[0]
	g := WarningGroup{Kind: WarnDisturbed, Cells: cells, Text: fmt.Sprintf("disturbed host: %d measured run(s) left out of the verdicts (%s); most in %s (%d); first: run %d: %s",
		len(r.Disturbed), strings.Join(byCause, ", "), most, perCell[most], first.Seq+1, first.Reason)}
	r.WarningGroups = append([]WarningGroup{g}, r.WarningGroups...)
	r.Warnings = append([]string{g.Text}, r.Warnings...)
}
