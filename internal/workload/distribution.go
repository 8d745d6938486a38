package workload

import "fmt"

// Distribution is one measured distribution that a workload reports as
// several metrics (its mean, percentiles, quartiles): a request latency, a
// round-trip time. Each metric's name, label and description are made from
// the same parts, so a statistic is named and described the same way in
// every workload: Distribution{Name: "rtt", Label: "RTT", Unit: "us", Of:
// "round-trip time"}.Percentile(99) is rtt_p99_us, "RTT p99 us", "99th
// percentile of the round-trip time".
type Distribution struct {
	Name  string // the metric names' first part: "rtt" in "rtt_p99_us"
	Label string // the labels' first word: "RTT" in "RTT p99 us"
	Unit  string // the unit, also the names' and labels' last part: "us"
	Of    string // what is measured, as a description names it: "round-trip time"
}

// Stat is the metric of one statistic of d, named stat ("mean", "p99") in
// the metric's name and label ("Q1" in the label for "q1"), with its own
// description.
func (d Distribution) Stat(stat, label, description string) Metric {
	return Metric{
		Name:        d.Name + "_" + stat + "_" + d.Unit,
		Unit:        d.Unit,
		Label:       d.Label + " " + label + " " + d.Unit,
		Description: description,
	}
}

// Mean is the mean's metric; its description says how one value is taken.
func (d Distribution) Mean(description string) Metric {
	return d.Stat("mean", "mean", description)
}

// Std is the metric of the sample standard deviation.
func (d Distribution) Std() Metric {
	return d.Stat("std", "std", "sample standard deviation of the "+d.Of)
}

// Percentile is the metric of the p-th percentile (p from 4 to 99), named
// pP; the 50th is described as the median.
func (d Distribution) Percentile(p int) Metric {
	stat := fmt.Sprintf("p%d", p)
	if p == 50 {
		return d.Stat(stat, stat, "median "+d.Of)
	}
	return d.Stat(stat, stat, fmt.Sprintf("%dth percentile of the %s", p, d.Of))
}

// Median is the median's metric, named median rather than p50.
func (d Distribution) Median() Metric {
	return d.Stat("median", "median", "median "+d.Of)
}

// Q3 is the metric of the third quartile, named q3.
func (d Distribution) Q3() Metric {
	return d.Stat("q3", "Q3", "third quartile of the "+d.Of)
}
