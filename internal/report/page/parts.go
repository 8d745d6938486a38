package page

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/workload"
)

// PartsDeclarer is implemented by workloads whose metrics are parts of a
// whole, e.g. the phases of one time slice of a periodic task (wake-up
// delay, computation, sleep) or the stages of handling one message. The HTML
// report draws such metrics as stacked bars, one bar per environment.
//
// MetricParts maps the name of each whole to its parts' metric names, in
// stacking order (bottom first). The parts must share a unit. The method
// uses only built-in types so that a workload implements it without
// importing this package.
type PartsDeclarer interface {
	MetricParts() map[string][]string
}

// partsOf returns the declared wholes of a workload, sorted by name.
func partsOf(name string) []wholeParts {
	wl, err := workload.Lookup(name)
	if err != nil {
		return nil
	}
	pd, ok := wl.(PartsDeclarer)
	if !ok {
		return nil
	}
	var out []wholeParts
	for whole, metrics := range pd.MetricParts() {
		if len(metrics) > 0 {
			out = append(out, wholeParts{whole, metrics})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].whole < out[j].whole })
	return out
}

type wholeParts struct {
	whole   string
	metrics []string
}

// percentileToken matches a percentile in a metric name: p50, p99, p99.9
// written p99_9 or p999 is taken as 99.9.
var percentileToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|_)(p(\d+)|median|min|max)(_|$)`) })

// percentileOf tells whether a metric names a percentile of some
// distribution (latency_p99_us, p50_ms, rtt_median_us, rtt_max_us): it
// returns the distribution's name (the metric without the token) and the
// percentile in [0, 100].
func percentileOf(metric string) (family string, pct float64, ok bool) {
	m := percentileToken().FindStringSubmatchIndex(metric)
	if m == nil {
		return "", 0, false
	}
	token := metric[m[4]:m[5]]
	switch token {
	case "median":
		pct = 50
	case "min":
		pct = 0
	case "max":
		pct = 100
	default:
		digits := metric[m[6]:m[7]]
		v, err := strconv.ParseFloat(digits, 64)
		if err != nil {
			return "", 0, false
		}
		// p999 is 99.9, p9999 99.99: digits past the second are decimals.
		if len(digits) > 2 {
			v, _ = strconv.ParseFloat(digits[:2]+"."+digits[2:], 64)
		}
		pct = v
	}
	if pct > 100 {
		return "", 0, false
	}
	family = strings.Trim(metric[:m[2]]+"_"+metric[m[9]:], "_")
	family = strings.ReplaceAll(family, "__", "_")
	return family, pct, true
}
