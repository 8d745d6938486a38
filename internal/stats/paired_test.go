package stats

import (
	"math"
	"strings"
	"testing"
)

// TestPairedOverheadMatchesR compares PairedOverhead with R: the paired t
// test's p-value, and the ends of the paired Fieller interval, which R
// finds by root search on the t statistic of x - rho b, not by the closed
// form (testdata/paired/make_expected.R).
func TestPairedOverheadMatchesR(t *testing.T) {
	var doc struct {
		Cases []struct {
			Name        string
			Baseline, X []float64
			Pct         float64
			LoPct       float64 `json:"lo_pct"`
			HiPct       float64 `json:"hi_pct"`
			P           float64
		}
	}
	readRExpected(t, "testdata/paired/expected.json", "Rscript testdata/paired/make_expected.R", &doc)
	for _, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got := PairedOverhead(c.Baseline, c.X, 0.95)
			// The ends are compared as deviations, in percentage points:
			// uniroot's tolerance is on the ratio.
			for _, e := range []struct {
				name      string
				got, want float64
			}{{"pct", got.Pct, c.Pct}, {"lo", got.LoPct, c.LoPct}, {"hi", got.HiPct, c.HiPct}} {
				if math.Abs(e.got-e.want) > 1e-8*math.Max(1, math.Abs(e.want)) {
					t.Errorf("%s = %.12g, R %.12g", e.name, e.got, e.want)
				}
			}
			if relativeError(got.PValue, c.P) > 1e-9 {
				t.Errorf("p = %.12g, R %.12g", got.PValue, c.P)
			}
			if got.Significant != (c.LoPct > 0 || c.HiPct < 0) {
				t.Errorf("significant %v for [%v, %v]", got.Significant, c.LoPct, c.HiPct)
			}
		})
	}
}

// TestPairingRemovesRoundDrift: when whole rounds drift (the design's
// reason to block), the paired interval is far narrower than the unpaired.
func TestPairingRemovesRoundDrift(t *testing.T) {
	drift := []float64{-30, 12, 25, -8, 40, -22, 5, -15}
	var base, x []float64
	for i, d := range drift {
		noise := float64(i%3-1) * 0.5
		base = append(base, 1000+d+noise)
		x = append(x, 1.02*(1000+d)-noise)
	}
	p := PairedOverhead(base, x, 0.95)
	u := Overhead(base, x, 0.95)
	if !(p.HiPct-p.LoPct < (u.HiPct-u.LoPct)/5) {
		t.Errorf("paired [%v, %v] not much narrower than unpaired [%v, %v]", p.LoPct, p.HiPct, u.LoPct, u.HiPct)
	}
	if !p.Significant || u.Significant {
		t.Errorf("paired significant %v (want true), unpaired %v (want false: drift hides 2%%)", p.Significant, u.Significant)
	}
}

func TestPairedOverheadEdges(t *testing.T) {
	tests := []struct {
		name        string
		base, x     []float64
		wantReason  string
		significant bool
	}{
		{"no pairs", nil, nil, "no complete pairs", false},
		{"one pair", []float64{1}, []float64{2}, "fewer than 2 complete pairs", false},
		{"non-finite pair dropped", []float64{1, math.NaN(), 1}, []float64{2, 2, 2}, "both samples are constant", false},
		{"constant and different", []float64{4, 4, 4}, []float64{5, 5, 5}, "not marked significant", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PairedOverhead(tt.base, tt.x, 0.95)
			if got.Significant != tt.significant || !strings.Contains(got.Reason, tt.wantReason) {
				t.Errorf("significant %v, reason %q; want %v, %q", got.Significant, got.Reason, tt.significant, tt.wantReason)
			}
		})
	}
}
