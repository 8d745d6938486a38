package stressng

import "testing"

// The lines are stress-ng 0.15.06's (Debian 12) --metrics-brief output of
// `stress-ng --cpu 1 --timeout 1`, and an older version's "info:" form.
func TestParseMetrics(t *testing.T) {
	for _, tt := range []struct {
		line string
		want Metrics
		ok   bool
	}{
		{"stress-ng: metrc: [9317] cpu                1579      1.00      0.94      0.02      1579.10        1640.60",
			Metrics{Stressor: "cpu", BogoOps: 1579, RealS: 1, UserS: 0.94, SysS: 0.02, BogoOpsPerS: 1579.10, BogoOpsPerCPUS: 1640.60}, true},
		{"stress-ng: info:  [412] vm      20000     10.01     9.80     0.11      1998.00      2018.15",
			Metrics{Stressor: "vm", BogoOps: 20000, RealS: 10.01, UserS: 9.80, SysS: 0.11, BogoOpsPerS: 1998, BogoOpsPerCPUS: 2018.15}, true},
		{"stress-ng: metrc: [9317] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s", Metrics{}, false},
		{"stress-ng: metrc: [9317]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)", Metrics{}, false},
		{"stress-ng: info:  [9317] successful run completed in 1.00s", Metrics{}, false},
		{"cpu 1579 1.00 0.94 0.02 1579.10 1640.60", Metrics{}, false}, // no [pid] field
		{"", Metrics{}, false},
	} {
		got, ok := ParseMetrics(tt.line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseMetrics(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
