package report

import "fmt"

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
