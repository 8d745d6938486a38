package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// storageNote is the note key of a disk workload's warning about the file
// system it wrote on (package disk): the storage cause.
const storageNote = "fs_warning"

// warnings collects what the runs said a reader must know: notes whose key
// ends in "warning" (once per workload and environment) and measured runs
// that started while another program kept the host busy.
func warnings(runs []store.Run) []Warning {
	var out []Warning
	seen := map[string]bool{}
	busy := map[string]int{}
	var busyOrder []string
	for _, run := range runs {
		if run.Warmup || run.Status != store.RunOK {
			continue
		}
		keys := make([]string, 0, len(run.Notes))
		for k := range run.Notes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "warning" || strings.HasSuffix(k, "_warning") {
				w := fmt.Sprintf("%s @ %s: %s", run.Workload, run.Env, run.Notes[k])
				if !seen[w] {
					seen[w] = true
					kind := WarnNote
					if k == storageNote {
						kind = WarnStorage
					}
					out = append(out, Warning{Kind: kind, Text: w, Subject: run.Workload + " @ " + run.Env, Message: run.Notes[k]})
				}
			}
		}
		if run.Settings["settle"] != "" {
			cell := run.Workload + " @ " + run.Env
			if busy[cell] == 0 {
				busyOrder = append(busyOrder, cell)
			}
			busy[cell]++
		}
	}
	for _, cell := range busyOrder {
		out = append(out, Warning{Kind: WarnBusy, Subject: cell, Runs: busy[cell],
			Text: fmt.Sprintf("%s: %d measured run(s) started while the host stayed busy (another program competed for the CPU): expect noise", cell, busy[cell])})
	}
	return out
}

// NoisyCV is the coefficient of variation above which a cell is called noisy.
const NoisyCV = 0.10

// noisyCells warns about cells whose runs spread widely: a deviation from the
// baseline smaller than that spread says little.
func noisyCells(cells []Cell, factors []string) []Warning {
	var out []Warning
	for i := range cells {
		c := &cells[i]
		if !c.Noisy() {
			continue
		}
		out = append(out, Warning{Kind: WarnNoisy, Subject: fmt.Sprintf("%s @ %s %s", RowName(c, factors), c.Env, c.Label), Text: fmt.Sprintf("%s @ %s %s: noisy, std is %.0f%% of the mean (min %s, max %s): more repetitions (--reps) or a quieter host would help",
			RowName(c, factors), c.Env, c.Label, c.Std/math.Abs(c.Mean)*100, FmtValue(c.Min), FmtValue(c.Max))})
	}
	return out
}

// Noisy reports that the cell's runs spread by more than NoisyCV of the mean.
func (c *Cell) Noisy() bool {
	return !c.Secondary && c.N >= 2 && c.Mean != 0 && c.Std/math.Abs(c.Mean) > NoisyCV
}

// OutlierZ is the modified z-score above which a run's value is called an
// outlier (Iglewicz and Hoaglin 1993: z = 0.6745 (x - median) / MAD).
const OutlierZ = 3.5

// outliers warns about runs whose value lies far from the other runs of the
// cell by the modified z-score, which the outlier itself cannot mask as it
// would mask the mean and standard deviation. Cells with fewer than five
// runs are not judged: the median absolute deviation of three values says
// too little.
func outliers(cells []Cell, factors []string) []Warning {
	var out []Warning
	for i := range cells {
		c := &cells[i]
		if c.Secondary || len(c.Values) < 5 {
			continue
		}
		dev := make([]float64, len(c.Values))
		for k, v := range c.Values {
			dev[k] = math.Abs(v - c.Median)
		}
		mad := stats.Median(dev)
		if mad == 0 {
			continue
		}
		var odd []string
		for _, v := range c.Values {
			if z := 0.6745 * (v - c.Median) / mad; math.Abs(z) > OutlierZ {
				odd = append(odd, FmtValue(v))
			}
		}
		if len(odd) > 0 {
			out = append(out, Warning{Kind: WarnOutlier, Subject: fmt.Sprintf("%s @ %s %s", RowName(c, factors), c.Env, c.Label), Runs: len(odd), Text: fmt.Sprintf("%s @ %s %s: %d outlier run(s) (%s; median %s; modified z-score above %.1f): look for what disturbed them",
				RowName(c, factors), c.Env, c.Label, len(odd), strings.Join(odd, ", "), FmtValue(c.Median), OutlierZ)})
		}
	}
	return out
}
