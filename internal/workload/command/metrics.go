package command

import (
	"fmt"
	"slices"

	"github.com/boxtax/boxtax/internal/workload"
)

// The metrics of a run: the four measured around the program, the
// adapter's, and the user's figures, which replace an adapter's of the
// same name.

// baseMetrics are what every run measures around the program; they stay
// in the overhead table beside the figures read from its output.
func baseMetrics() []workload.Metric {
	return []workload.Metric{
		{Name: "wall_s", Unit: "s", Label: "wall s", Description: "real time from starting the program to its exit, measured inside the environment"},
		{Name: "user_s", Unit: "s", Label: "user CPU s", Description: "user CPU time of the program and the children it waited for (rusage)"},
		{Name: "sys_s", Unit: "s", Label: "system CPU s", Description: "system CPU time of the program and the children it waited for (rusage)"},
		{Name: "maxrss_mib", Unit: "MiB", Label: "peak RSS MiB", Description: "peak resident set of the program or of its largest waited-for child (rusage ru_maxrss); at least the worker's own resident set, which the kernel counts in when the worker starts the program (docs/design/009)"},
	}
}

// checkMetrics reads the figures asked for. A figure named as one of the
// adapter's replaces the adapter's, and a note says so (Notes).
func (c *config) checkMetrics() error {
	adapterHas := map[string]bool{}
	if c.adapter != nil {
		for _, m := range c.adapter.metrics {
			adapterHas[m.Name] = true
		}
	}
	seen := map[string]bool{}
	c.extracts, c.replaced = nil, nil
	for _, it := range c.metrics {
		e, err := extractFrom(it)
		if err != nil {
			return fmt.Errorf("parameter metrics: %w", err)
		}
		if seen[e.Name] {
			return fmt.Errorf("parameter metrics: %s is named twice: give each figure once", e.Name)
		}
		seen[e.Name] = true
		if adapterHas[e.Name] {
			c.replaced = append(c.replaced, e.Name)
		}
		c.extracts = append(c.extracts, e)
	}
	return nil
}

// adapterMetrics are the adapter's metrics that no figure of the user's
// replaces.
func (c *config) adapterMetrics() []workload.Metric {
	if c.adapter == nil {
		return nil
	}
	var out []workload.Metric
	for _, m := range c.adapter.metrics {
		if !slices.Contains(c.replaced, m.Name) {
			out = append(out, m)
		}
	}
	return out
}

// Notes implements workload.Noter: what a user should know about how the
// command is measured:
// each of the adapter's figures that one of theirs replaces.
func (c *config) Notes() []string {
	var out []string
	for _, name := range c.replaced {
		for _, e := range c.extracts {
			if e.Name == name {
				out = append(out, fmt.Sprintf("metric %s is yours (%s), not the %s adapter's", name, e.how(), c.adapter.name))
			}
		}
	}
	return out
}

// MetricsFor implements workload.MetricDeclarer: the measured ones (wall
// time, CPU times and peak memory, always in the table), then the
// adapter's that the user's do not replace, then the user's.
func (cmdWorkload) MetricsFor(p workload.Params) []workload.Metric {
	c, err := parse(p)
	if err != nil {
		return baseMetrics()
	}
	return c.metricsOut()
}

// metricsOut are the metrics a run of c reports, in that order.
func (c *config) metricsOut() []workload.Metric {
	out := append(baseMetrics(), c.adapterMetrics()...)
	for _, e := range c.extracts {
		out = append(out, e.Metric())
	}
	return out
}
