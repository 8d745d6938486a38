package report

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/stats"
)

// CompareSchema names the JSON form of a comparison of studies.
const CompareSchema = "boxtax.compare/v1"

// Comparison puts studies side by side on the cells they share (same
// workload, environment, levels and metric): every study against the first,
// the reference, and each study's own container overhead.
type Comparison struct {
	Schema  string          `json:"schema"`
	Studies []ComparedStudy `json:"studies"`
	Rows    []CompareRow    `json:"rows"`
	// Unmatched counts, per study, the cells not in every other study.
	Unmatched []int  `json:"unmatched"`
	Baseline  string `json:"baseline"` // the env the in-study overheads are against
	// Differences are the parameters with which shared cells ran
	// otherwise than in the reference: a caller refuses such a comparison
	// unless told to go ahead, and the formats list them.
	Differences []Difference `json:"differences,omitempty"`
	// Contradictions are the cells whose verdict in a study of the
	// reference's machine contradicts the reference's (Contradicts): the
	// formats list them first, since at least one of the two verdicts is
	// the host's state rather than the environment's cost.
	Contradictions []Contradiction `json:"contradictions,omitempty"`
}

// ComparedStudy is one study of a comparison, with the host it ran on.
type ComparedStudy struct {
	Label    string `json:"label"` // how the user named it, e.g. "a.db:3"
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Created  string `json:"created_at"`
	Hostname string `json:"hostname"` // the device label (run --host-label), else the hostname
	CPU      string `json:"cpu"`
	Kernel   string `json:"kernel"`
	Docker   string `json:"docker"` // version and storage driver
}

// CompareRow is one shared cell with a value per study.
type CompareRow struct {
	Workload       string            `json:"workload"`
	Env            string            `json:"env"`
	Levels         map[string]string `json:"levels"`
	Metric         string            `json:"metric"`
	Label          string            `json:"label"`
	Unit           string            `json:"unit"`
	HigherIsBetter bool              `json:"higher_is_better"`
	Values         []CompareValue    `json:"values"` // one per study, in order
	Name           string            `json:"-"`      // workload and non-env levels
}

// CompareValue is one study's figure for a shared cell.
type CompareValue struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	// DiffPct is (mean / reference mean - 1) * 100, with Fieller's 95 %
	// interval and Welch's p; absent for the reference itself.
	DiffPct     *float64   `json:"diff_pct"`
	DiffCI95    []*float64 `json:"diff_ci95"`
	PValue      *float64   `json:"p_value,omitempty"`
	BeyondNoise bool       `json:"beyond_noise"` // the interval excludes 0
	Note        string     `json:"note,omitempty"`
	// OverheadPct is the cell's deviation from its own study's baseline, as in
	// that study's report, with its interval.
	OverheadPct  *float64   `json:"overhead_pct"`
	OverheadCI95 []*float64 `json:"overhead_ci95"`
	Significant  bool       `json:"overhead_significant"`
}

// Compare builds the comparison of reports, the first being the reference;
// labels say how the user named each study.
func Compare(labels []string, reports []*Report) *Comparison {
	cmp := &Comparison{Schema: CompareSchema, Unmatched: make([]int, len(reports)), Rows: []CompareRow{}, Contradictions: contradictions(reports)}
	if len(reports) > 0 {
		cmp.Baseline = reports[0].Study.Baseline
	}
	keyOf := func(c *Cell) string {
		return c.Workload + "\x00" + c.Env + "\x00" + levelsKey(c.Levels) + "\x00" + c.Metric
	}
	index := make([]map[string]*Cell, len(reports))
	for i, r := range reports {
		cmp.Studies = append(cmp.Studies, comparedStudy(labels[i], r))
		index[i] = map[string]*Cell{}
		for k := range r.Cells {
			c := &r.Cells[k]
			if !c.Secondary && c.N > 0 {
				index[i][keyOf(c)] = c
			}
		}
	}
	if len(reports) == 0 {
		return cmp
	}
	for i := range reports {
		for k := range index[i] {
			for j := range reports {
				if _, ok := index[j][k]; !ok {
					cmp.Unmatched[i]++
					break
				}
			}
		}
	}
	for k := range reports[0].Cells {
		ref := &reports[0].Cells[k]
		if ref.Secondary || ref.N == 0 {
			continue
		}
		cells := make([]*Cell, len(reports))
		shared := true
		for i := range reports {
			if cells[i] = index[i][keyOf(ref)]; cells[i] == nil {
				shared = false
				break
			}
		}
		if !shared {
			continue
		}
		row := CompareRow{Workload: ref.Workload, Env: ref.Env, Levels: ref.Levels, Metric: ref.Metric, Label: ref.Label,
			Unit: ref.Unit, HigherIsBetter: ref.HigherIsBetter, Name: RowName(ref, reports[0].factors)}
		for i, c := range cells {
			v := CompareValue{N: c.N, Mean: c.Mean, Std: c.Std, DiffCI95: []*float64{nil, nil}, OverheadCI95: []*float64{nil, nil}}
			if !c.absolute { // an absolute figure has no overhead against the baseline
				v.OverheadPct, v.OverheadCI95, v.Significant = c.OverheadPct, c.OverheadCI95, c.Significant
			}
			if i > 0 {
				o := stats.Overhead(ref.Values, c.Values, 0.95)
				v.DiffPct, v.PValue, v.Note = finite(o.Pct), finite(o.PValue), o.Reason
				v.DiffCI95 = []*float64{finite(o.LoPct), finite(o.HiPct)}
				v.BeyondNoise = o.Significant
			}
			row.Values = append(row.Values, v)
		}
		cmp.Rows = append(cmp.Rows, row)
	}
	cmp.Differences = differences(reports, cmp.Rows)
	return cmp
}

func levelsKey(levels map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(levels) {
		parts = append(parts, k+"="+levels[k])
	}
	return strings.Join(parts, "|")
}

func comparedStudy(label string, r *Report) ComparedStudy {
	h := r.host
	cs := ComparedStudy{Label: label, ID: r.Study.ID, Name: r.Study.Name, Status: r.Study.Status,
		Created: r.Study.CreatedAt.UTC().Format("2006-01-02 15:04 MST"), Hostname: h.Label(), Kernel: h.KernelRelease}
	cs.CPU = h.CPUModel
	if h.CPUs > 0 {
		cs.CPU = fmt.Sprintf("%s x%d", h.CPUModel, h.CPUs)
	}
	if d := docker.FactsOf(h); d != nil && d.ServerVersion != "" {
		cs.Docker = d.ServerVersion
		if d.StorageDriver != "" {
			cs.Docker += " (" + d.StorageDriver + ")"
		}
	}
	return cs
}

// Letter names the i-th study of a comparison in headings: A, B, C ...
func Letter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("S%d", i+1)
}
