package rt

import (
	"slices"

	"github.com/boxtax/boxtax/internal/stats"
)

// namedSeries is one per-slice record with its series name.
type namedSeries struct {
	name   string
	values []float64
}

// series lists the records in the thesis's order of the measuring points.
func (r record) series() []namedSeries {
	if r.oh1 == nil { // work none: the wake-up latency only
		return []namedSeries{{"latency_ns", r.latency}}
	}
	out := []namedSeries{{"oh1_ns", r.oh1}}
	if r.capture != nil {
		out = append(out, namedSeries{"capture_ns", r.capture}, namedSeries{"write_ns", r.write})
	}
	return append(out, namedSeries{"work_ns", r.work}, namedSeries{"oh2_ns", r.oh2},
		namedSeries{"sleep_ns", r.sleep}, namedSeries{"latency_ns", r.latency})
}

// from drops the first k slices.
func (r record) from(k int) record {
	cut := func(s []float64) []float64 {
		if s == nil {
			return nil
		}
		return s[k:]
	}
	return record{oh1: cut(r.oh1), work: cut(r.work), oh2: cut(r.oh2), sleep: cut(r.sleep),
		latency: cut(r.latency), capture: cut(r.capture), write: cut(r.write)}
}

// sample is one figure of the run.
type sample struct {
	metric string
	value  float64
}

// summarize computes the run's figures from its slices. A record of the
// wake-up latency only (work none) has no parts to summarise: its slices
// are used up to point 1, and an overrun is a wake-up after the next slot
// began.
func summarize(r record, periodNs int64, overruns, skipped int) []sample {
	n := len(r.latency)
	lat := slices.Clone(r.latency)
	slices.Sort(lat)
	used := 0.0
	for i := range n {
		busy := r.latency[i]
		if r.oh1 != nil {
			busy += r.oh1[i] + r.work[i] + r.oh2[i]
		}
		if r.capture != nil {
			busy += r.capture[i] + r.write[i]
		}
		used += busy
	}
	out := []sample{
		{"latency_p50_us", stats.Quantile(lat, 0.5) / 1e3},
		{"latency_p99_us", stats.Quantile(lat, 0.99) / 1e3},
		{"latency_p999_us", stats.Quantile(lat, 0.999) / 1e3},
		{"latency_max_us", lat[n-1] / 1e3},
		{"violations_pct", 100 * float64(overruns) / float64(n)},
		{"slice_used_pct", 100 * used / float64(n) / float64(periodNs)},
	}
	if r.oh1 == nil {
		return append(out, sample{"slices", float64(n)}, sample{"skipped_slots", float64(skipped)})
	}
	meanStd := func(name string, v []float64) {
		s := stats.Describe(v)
		out = append(out, sample{name + "_mean_ns", s.Mean}, sample{name + "_std_ns", s.Std})
	}
	meanStd("oh1", r.oh1)
	if r.capture != nil {
		meanStd("capture", r.capture)
		meanStd("write", r.write)
	}
	meanStd("work", r.work)
	meanStd("oh2", r.oh2)
	meanStd("sleep", r.sleep)
	return append(out, sample{"slices", float64(n)}, sample{"skipped_slots", float64(skipped)})
}
