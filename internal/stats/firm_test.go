package stats

import (
	"math"
	"testing"
)

// TestFirmWidensForAReplicate: each side of the interval grows by
// (t + t_q √2) / t on its degrees of freedom, never less than the 99 %
// interval's quantile (at 3 degrees of freedom that floor binds); the
// level says the quantile used; an unbounded interval stays unbounded.
func TestFirmWidensForAReplicate(t *testing.T) {
	for _, df := range []float64{3, 4, 10, 50} {
		r := OverheadResult{Level: 0.95, Pct: 10, LoPct: 6, HiPct: 15, DF: df, Mean: 110, BaselineMean: 100}
		f := r.Firm()
		t95 := StudentTQuantile(0.975, df)
		want := math.Max(t95+StudentTQuantile(ReplicationProbability, df)*math.Sqrt2, StudentTQuantile((1+CostStopLevel)/2, df)) / t95
		if got := (f.HiPct - 10) / 5; math.Abs(got-want) > 1e-12 || math.Abs((10-f.LoPct)/4-want) > 1e-12 {
			t.Errorf("df %g: widened by %.4f and %.4f, want %.4f", df, got, (10-f.LoPct)/4, want)
		}
		if q := StudentTQuantile((1+f.Level)/2, df); math.Abs(q-want*t95) > 1e-6 {
			t.Errorf("df %g: level %.6f has quantile %.4f, want %.4f", df, f.Level, q, want*t95)
		}
	}
	floor := StudentTQuantile((1+CostStopLevel)/2, 3) / StudentTQuantile(0.975, 3)
	r := OverheadResult{Level: 0.95, Pct: 10, LoPct: 6, HiPct: 14, DF: 3}
	if f := r.Firm(); math.Abs((f.HiPct-10)/4-floor) > 1e-12 {
		t.Errorf("df 3: widened by %.4f, want the 99 %% floor %.4f", (f.HiPct-10)/4, floor)
	}
	low := OverheadResult{Level: 0.95, Pct: -90, LoPct: -99, HiPct: -80, DF: 6, Mean: 10, BaselineMean: 100}
	if f := low.Firm(); f.LoPct != MinPct {
		t.Errorf("a throughput cannot fall below -100 %%: firm lower end %v", f.LoPct)
	}
	unbounded := OverheadResult{Level: 0.95, Pct: 40, LoPct: math.NaN(), HiPct: math.NaN(), DF: 4}
	if f := unbounded.Firm(); !math.IsNaN(f.LoPct) || !(f.Level > 0.99) {
		t.Errorf("unbounded: firm [%v, %v] at %v, want unbounded at the firm level", f.LoPct, f.HiPct, f.Level)
	}
}

// TestDecideFirmAgainstTheMargin: no difference where the firm interval
// lies within ±margin even though it excludes 0; a cost only wholly
// beyond it; between, undecided, leaning to what the 95 % interval alone
// shows, with the rounds a firm verdict would take; the figures are the
// 95 % interval's.
func TestDecideFirmAgainstTheMargin(t *testing.T) {
	for _, tc := range []struct {
		name      string
		r         OverheadResult
		want      Decision
		leans     Decision
		moreRound bool
	}{
		{"a small real difference, closely measured", OverheadResult{Level: 0.95, Pct: 0.8, LoPct: 0.5, HiPct: 1.1, DF: 20}, NoDifference, Undecided, false},
		{"a large cost", OverheadResult{Level: 0.95, Pct: 40, LoPct: 35, HiPct: 45, DF: 10}, Costs, Undecided, false},
		{"a gain beyond the margin", OverheadResult{Level: 0.95, Pct: -40, LoPct: -45, HiPct: -35, DF: 10}, Costs, Undecided, false},
		{"a cost past 0 but not past the margin", OverheadResult{Level: 0.95, Pct: 1.3, LoPct: 0.6, HiPct: 2.0, DF: 4}, Undecided, NoDifference, false},
		{"a cost the 95 % interval shows, not yet firm", OverheadResult{Level: 0.95, Pct: 21, LoPct: 8, HiPct: 37, DF: 6}, Undecided, Costs, true},
		{"nothing shown", OverheadResult{Level: 0.95, Pct: 1, LoPct: -4, HiPct: 6, DF: 6}, Undecided, Undecided, true},
	} {
		v := DecideFirm(tc.r, 5, 2)
		if v.Decision != tc.want || v.Leans != tc.leans {
			t.Errorf("%s: %v leaning %v, want %v leaning %v", tc.name, v.Decision, v.Leans, tc.want, tc.leans)
		}
		if v.LoPct != tc.r.LoPct || v.HiPct != tc.r.HiPct {
			t.Errorf("%s: interval [%v, %v], want the 95 %% one [%v, %v]", tc.name, v.LoPct, v.HiPct, tc.r.LoPct, tc.r.HiPct)
		}
		if tc.moreRound && !(v.MoreRounds > 0) {
			t.Errorf("%s: %d more rounds, want an estimate", tc.name, v.MoreRounds)
		}
	}
}
