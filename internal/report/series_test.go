package report

import "testing"

func TestSeriesDistributionAveragesRunQuantiles(t *testing.T) {
	r := factorial()
	var q *Quantile
	for k, v := range r.series {
		if k.Env == "native" {
			q = v
		}
	}
	if q == nil || q.Runs != 5 || q.Unit != "µs" {
		t.Fatalf("native latency series: %+v", q)
	}
	x, p := q.Points()
	if len(x) != len(p) || p[0] != 0 || p[len(p)-1] != 1 || x[0] > x[len(x)-1] {
		t.Errorf("points not a distribution: %v ... %v", x[:3], x[len(x)-3:])
	}
}
