package workload

import (
	"math"
	"testing"
)

func TestMetricCombine(t *testing.T) {
	vals := []float64{1, 2, 6}
	for _, tt := range []struct {
		m    Metric
		want float64
	}{
		{Metric{HigherIsBetter: true}, 9},
		{Metric{}, 3},
		{Metric{Aggregate: "max"}, 6},
		{Metric{Aggregate: "min", HigherIsBetter: true}, 1},
		{Metric{Aggregate: "mean", HigherIsBetter: true}, 3},
	} {
		if got := tt.m.Combine(vals); got != tt.want {
			t.Errorf("%+v: %v, want %v", tt.m, got, tt.want)
		}
	}
	if !math.IsNaN((Metric{}).Combine(nil)) {
		t.Error("combining nothing should be NaN")
	}
}

func TestPackedSeriesRoundTrip(t *testing.T) {
	in := []float64{0, -1.5, math.MaxFloat64, 1e-300}
	out, err := UnpackFloat64s(PackFloat64s(in))
	if err != nil || len(out) != len(in) {
		t.Fatal(err)
	}
	for i := range in {
		if in[i] != out[i] {
			t.Errorf("value %d: %v != %v", i, out[i], in[i])
		}
	}
	if _, err := UnpackFloat64s("not base64!"); err == nil {
		t.Error("garbage unpacked")
	}
}
