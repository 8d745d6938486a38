package page

import "testing"

func TestPercentileMetricNames(t *testing.T) {
	tests := []struct {
		metric, family string
		pct            float64
		ok             bool
	}{
		{"latency_p99_us", "latency_us", 99, true},
		{"p50_ms", "ms", 50, true},
		{"rtt_p999_us", "rtt_us", 99.9, true},
		{"rtt_median_us", "rtt_us", 50, true},
		{"lat_max_us", "lat_us", 100, true},
		{"copy_MBps", "", 0, false},
		{"events_per_s", "", 0, false},
	}
	for _, tt := range tests {
		fam, pct, ok := percentileOf(tt.metric)
		if fam != tt.family || pct != tt.pct || ok != tt.ok {
			t.Errorf("percentileOf(%q) = %q, %v, %v; want %q, %v, %v", tt.metric, fam, pct, ok, tt.family, tt.pct, tt.ok)
		}
	}
}
