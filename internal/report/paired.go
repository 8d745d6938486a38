package report

import (
	"fmt"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/study"
)

// Which interval a report's overheads carry.
const (
	intervalUnpaired = "unpaired: Fieller's interval with Welch-type degrees of freedom, runs as independent samples"
	intervalPaired   = "paired by round: Fieller's interval with the covariance of the rounds' pairs, n-1 degrees of freedom; the paired t test"
)

// PairedIntervals says whether the cells' overhead intervals are the
// paired ones (report --paired).
func (r *Report) PairedIntervals() bool { return r.Study.Interval == intervalPaired }

// PairedResult is a cell's overhead estimated from its runs paired with the
// baseline's runs of the same round. The runs of a study are randomized
// complete blocks: every round runs every cell once, in a fresh random
// order, so whatever drifts between rounds (heat, background load) touches
// both members of a pair alike and drops out of their comparison.
type PairedResult struct {
	Pairs       int        `json:"pairs"` // rounds in which both ran
	Pct         *float64   `json:"pct"`
	CI95        []*float64 `json:"ci95"`
	PValue      *float64   `json:"p_value"` // paired t test
	Significant bool       `json:"significant"`
	Note        string     `json:"note,omitempty"`
	df          float64    // the paired t's degrees of freedom (pairs - 1)
}

// pairWith sets c.Paired from the rounds c and its baseline share. Runs
// not recorded in rounds (two values of one cell in the same round) are not
// blocks, and get no paired estimate.
func (c *Cell) pairWith(base *Cell) {
	if len(base.reps) != len(base.Values) || len(c.reps) != len(c.Values) || repeated(base.reps) || repeated(c.reps) {
		return
	}
	b, x := study.PairByRound(base.Values, base.reps, c.Values, c.reps)
	if len(b) < 2 {
		return
	}
	o := stats.PairedOverhead(b, x, 0.95)
	c.Paired = &PairedResult{Pairs: len(b), Pct: finite(o.Pct), CI95: []*float64{finite(o.LoPct), finite(o.HiPct)},
		PValue: finite(o.PValue), Significant: o.Significant, Note: o.Reason, df: o.DF}
}

// usePaired makes the paired estimate the cell's overhead interval, p-value
// and significance.
func (c *Cell) usePaired() {
	p := c.Paired
	c.OverheadPct, c.OverheadCI95, c.PValue, c.Significant = p.Pct, p.CI95, p.PValue, p.Significant
	c.pairedInterval, c.df = true, p.df
	c.OverheadNote = fmt.Sprintf("paired by round (%d pairs)", p.Pairs)
	if p.Note != "" {
		c.OverheadNote += ": " + p.Note
	}
}

func repeated(reps []int) bool {
	seen := map[int]bool{}
	for _, r := range reps {
		if seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
}
