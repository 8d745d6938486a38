// Package stressng reads the output of stress-ng, which load.stress-ng runs
// as a background load and the cmd workload's stress-ng adapter runs as
// the user asked.
package stressng

import (
	"strconv"
	"strings"
)

// Metrics is one stressor's line of stress-ng --metrics or --metrics-brief:
//
//	stress-ng: metrc: [pid] cpu  ops  real  usr  sys  ops/s(real)  ops/s(usr+sys)
//
// ("info:" instead of "metrc:" before version 0.14).
type Metrics struct {
	Stressor           string
	BogoOps            float64
	RealS, UserS, SysS float64 // wall and CPU time, in seconds
	BogoOpsPerS        float64 // per second of real time
	BogoOpsPerCPUS     float64 // per second of user+system time
}

// ParseMetrics reads line as a stressor's metrics line: the stressor name
// after the first [pid] field (past the "stress-ng:" prefix) with six
// numbers after it. ok is false for any other line, such as the header.
func ParseMetrics(line string) (m Metrics, ok bool) {
	f := strings.Fields(line)
	for i := 2; i+6 < len(f); i++ {
		if !strings.HasPrefix(f[i-1], "[") || !strings.HasSuffix(f[i-1], "]") {
			continue
		}
		var v [6]float64
		for k := range v {
			x, err := strconv.ParseFloat(f[i+1+k], 64)
			if err != nil {
				return Metrics{}, false
			}
			v[k] = x
		}
		return Metrics{Stressor: f[i], BogoOps: v[0], RealS: v[1], UserS: v[2], SysS: v[3],
			BogoOpsPerS: v[4], BogoOpsPerCPUS: v[5]}, true
	}
	return Metrics{}, false
}
