package report

import (
	"fmt"
	"math"
	"strings"
)

// Repetitions is how often each cell was measured, beside how often the
// published study it reproduces measured: a study that runs 3 where the
// paper ran 20 says so.
type Repetitions struct {
	Rounds int `json:"rounds"` // measured rounds planned (each runs every cell once, or in an adaptive study's focused rounds the undecided ones)
	// Fewest is the fewest rounds a cell is in, when below Rounds: an
	// adaptive study's focused rounds measure only the cells still
	// undecided, with their baselines.
	Fewest  int    `json:"fewest,omitempty"`
	Spec    int    `json:"spec"`            // the spec's repetitions (an adaptive study's first rounds)
	Paper   int    `json:"paper,omitempty"` // the paper's count; 0: the spec names none
	PaperID string `json:"paper_id,omitempty"`
	// PrecisionPct and MaxRounds are set in an adaptive study (--reps auto):
	// rounds were added until every primary metric's 95 % interval of the
	// overhead was within ±PrecisionPct, or MaxRounds ran.
	PrecisionPct float64 `json:"precision_pct,omitempty"`
	MaxRounds    int     `json:"max_rounds,omitempty"`
}

// String is the report's line about repetitions.
func (r Repetitions) String() string {
	s := fmt.Sprintf("repetitions: %d per cell", r.Rounds)
	if r.Fewest > 0 {
		s = fmt.Sprintf("repetitions: %d to %d per cell", r.Fewest, r.Rounds)
	}
	switch {
	case r.PrecisionPct > 0 && r.Fewest > 0:
		s += fmt.Sprintf(" (adaptive: started with %d, target ±%g%%, at most %d; the rounds after the first measured only the cells still undecided, with their baselines)", r.Spec, r.PrecisionPct, r.MaxRounds)
	case r.PrecisionPct > 0:
		s += fmt.Sprintf(" (adaptive: started with %d, target ±%g%%, at most %d)", r.Spec, r.PrecisionPct, r.MaxRounds)
	}
	switch {
	case r.Paper > 0 && r.PaperID != "":
		s += fmt.Sprintf("; the paper (%s): %d", r.PaperID, r.Paper)
	case r.Paper > 0:
		s += fmt.Sprintf("; the paper: %d", r.Paper)
	}
	if r.Paper > r.Rounds && r.PrecisionPct == 0 {
		s += " (fewer than published: --reps paper runs the paper's count)"
	}
	return s
}

// precisionHalfWidth is how far the overhead's 95 % interval reaches from
// its estimate on the wider side, in percentage points; +Inf without one.
func precisionHalfWidth(c *Cell) float64 {
	if c.OverheadPct == nil || len(c.OverheadCI95) != 2 || c.OverheadCI95[0] == nil || c.OverheadCI95[1] == nil {
		return math.Inf(1)
	}
	return math.Max(*c.OverheadCI95[1]-*c.OverheadPct, *c.OverheadPct-*c.OverheadCI95[0])
}

// markPrecision marks, in an adaptive study, whether the overhead's 95 %
// interval of each cell its target applies to (the primary metrics of
// every environment but the baseline) is within the target.
func (r *Report) markPrecision() {
	target := r.Study.Repetitions.PrecisionPct
	for i := range r.Cells {
		if c := &r.Cells[i]; target > 0 && !c.IsBaseline && !c.Secondary {
			ok := precisionHalfWidth(c) <= target
			c.PrecisionReached = &ok
		}
	}
}

// PrecisionSummary says how many cells reached the adaptive target and
// names the widest of those that did not.
func (r *Report) PrecisionSummary() string {
	target := r.Study.Repetitions.PrecisionPct
	if target <= 0 {
		return ""
	}
	var missed []string
	cells := 0
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.IsBaseline || c.Secondary {
			continue
		}
		cells++
		if c.PrecisionReached == nil || !*c.PrecisionReached {
			missed = append(missed, missedCell(strings.TrimSpace(RowName(c, r.factors)), c.Label, c.Env, precisionHalfWidth(c)))
		}
	}
	return precisionLine(cells-len(missed), cells, target, missed)
}

// missedCell names a cell whose overhead's interval is still wider than
// the target, with its half-width: "cpu.prime events/s @ docker-bridge
// (±3.2%)", or "no interval" when none could be computed (hw +Inf).
func missedCell(row, label, env string, hw float64) string {
	w := "no interval"
	switch {
	case math.IsInf(hw, 1):
	case hw >= 10:
		w = fmt.Sprintf("±%.0f%%", hw)
	default:
		w = fmt.Sprintf("±%.2g%%", hw)
	}
	return fmt.Sprintf("%s %s @ %s (%s)", row, label, env, w)
}

// precisionLine sums up the precision of a study's overheads in one line:
// how many of the cells reached the target, and the first five that did
// not (missedCell).
func precisionLine(reached, cells int, targetPct float64, missed []string) string {
	s := fmt.Sprintf("%d of %d cells have their overhead's 95%% interval within ±%g%%", reached, cells, targetPct)
	if len(missed) > 0 {
		const show = 5
		more := ""
		if len(missed) > show {
			more = fmt.Sprintf(" and %d more", len(missed)-show)
		}
		s += "; not yet: " + strings.Join(missed[:min(show, len(missed))], ", ") + more
	}
	return s
}
