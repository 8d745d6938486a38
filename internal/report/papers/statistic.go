package papers

import (
	"fmt"
	"math"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/stats"
)

// Statistic is how a paper made one printed value of its runs, when
// it says and it is not the mean (the mean of every run is the default).
type Statistic struct {
	// Method: "median-dropping-extremes", the median of the runs left after
	// dropping the best and the worst (stats.MedianDroppingExtremes).
	Method string `yaml:"method"`
	// RankBy is the boxtax metric that ranks the runs, where the paper
	// ranks them by another quantity than the one printed.
	RankBy string `yaml:"rank_by,omitempty"`
	Quote  string `yaml:"quote"`
	// Reading, where the quote admits more than one computation, says
	// which one boxtax makes and which other the words allow.
	Reading string `yaml:"reading,omitempty"`
}

// MedianDroppingExtremes is the one paper statistic besides the mean.
const MedianDroppingExtremes = "median-dropping-extremes"

func (s *Statistic) check() error {
	if s == nil || s.Method == MedianDroppingExtremes {
		return nil
	}
	return fmt.Errorf("unknown statistic method %q; valid: %s (or none: the mean)", s.Method, MedianDroppingExtremes)
}

// statistic is the paper's statistic over cell c of this study, and how
// the row names it: the mean, or the paper's own.
func statistic(r *report.Report, c *report.Cell, s *Statistic) (value float64, name string) {
	if s == nil {
		return c.Mean, fmt.Sprintf("mean of %d runs", c.N)
	}
	by, rank := c.Values, "its own value"
	if s.RankBy == c.Metric {
		rank = c.Metric
	} else if s.RankBy != "" {
		if rc := sibling(r, c, s.RankBy); rc != nil && len(rc.Values) == len(c.Values) && sameInts(rc.Rounds(), c.Rounds()) {
			by, rank = rc.Values, rc.Metric
		} else {
			rank = "its own value (" + s.RankBy + ", by which the paper ranks, is not recorded run by run beside it)"
		}
	}
	v, kept := stats.MedianDroppingExtremes(c.Values, by)
	if kept == len(c.Values) {
		return v, fmt.Sprintf("median of all %d runs (the paper's median drops the best and worst run, which takes 3 or more)", c.N)
	}
	return v, fmt.Sprintf("median of %d of %d runs, the best and worst by %s dropped (%s)", kept, c.N, rank, map[bool]string{true: "our reading of the paper's statistic", false: "the paper's statistic"}[s.Reading != ""])
}

// sibling is the cell of metric in c's workload, environment and levels.
func sibling(r *report.Report, c *report.Cell, metric string) *report.Cell {
	for i := range r.Cells {
		x := &r.Cells[i]
		if x.Metric == metric && x.Workload == c.Workload && x.Env == c.Env && x.Group == c.Group {
			return x
		}
	}
	return nil
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fillDiff sets the row's difference from each device's published value:
// for a published % deviation, ours minus it in percentage points; for a
// published value, ours (the paper's statistic, in the metric's unit)
// relative to it (scale converts the paper's unit).
func fillDiff(row *report.PaperRow, pubs []published, signs []string, scale float64) {
	if row.Status != report.PaperMeasured {
		return
	}
	if scale == 0 {
		scale = 1
	}
	for i, p := range pubs {
		var d *float64
		switch {
		case p.blank || p.bound != "":
		case p.pct && row.OursPct != nil:
			if pub, ok := signedPct(p.value, signs[i]); ok {
				v := *row.OursPct - pub
				d, row.DiffUnit = &v, report.DiffPoints
			}
		case !p.pct && row.OursStat != nil && p.value != 0:
			want := p.value * scale
			v := (*row.OursStat - want) / math.Abs(want) * 100
			d, row.DiffUnit = &v, report.DiffRelative
		}
		row.Diff = append(row.Diff, d)
	}
}
