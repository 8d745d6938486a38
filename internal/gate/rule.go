// Package gate is the overhead gate (run and report --max-overhead): it
// turns a report into a pass or a fail for CI, as k6's thresholds do. Each
// rule names environments, workloads and metrics and the largest cost they
// may show; rules are parsed against the environments and workloads a
// Catalog is given, and judged against a report's cells.
//
// The cost of a cell is its overhead in the bad direction: -overhead_pct
// when higher is better (throughput lost), +overhead_pct otherwise (latency
// or time gained), and its 95 % interval turned the same way. A cell
// fails its rule when the cost is shown to be over the limit: the whole
// interval lies above it (its lower end > limit). It passes when it is
// shown to be within: the whole interval at or below the limit. Between
// the two it is undecided: the interval reaches past the limit, so the
// runs can show neither; it is listed, and fails only when the gate is
// judged with failUndecided (--fail-undecided). So fewer repetitions never
// make a gate easier to pass with --fail-undecided, and never make a cell
// fail by chance without it (design note 013). A cell without an overhead
// or without an interval (no data, no baseline, one run) is unchecked; a
// rule under which no cell at all could be checked fails, so a gate never
// passes on missing numbers.
package gate

import (
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// Rule is one --max-overhead rule: ENV:WORKLOAD[.METRIC]=LIMIT%.
type Rule struct {
	Text     string  `json:"rule"`      // as given
	Env      string  `json:"env"`       // an environment, or * for every one but the baseline
	Workload string  `json:"workload"`  // a workload, or * for every one
	Metric   string  `json:"metric"`    // a metric; empty: every primary (non-secondary) metric
	LimitPct float64 `json:"limit_pct"` // the largest cost allowed, in percent
}

// All is the wildcard of a rule's environment and workload.
const All = "*"

// RuleForm is the form of a rule, for messages.
const RuleForm = "ENV:WORKLOAD[.METRIC]=LIMIT% (e.g. docker-bridge:cpu.prime.events_per_s=5%, *:net.rr=10%, *:*=10%)"

// Catalog is what rules may name: the environments (base names) and the
// workloads, whose names and metrics a rule's WORKLOAD.METRIC resolves
// against.
type Catalog struct {
	Envs      []string
	Workloads []workload.Workload
}

// workloadNames lists the catalog's workloads by name, in its order.
func (cat Catalog) workloadNames() []string {
	var names []string
	for _, w := range cat.Workloads {
		names = append(names, w.Info().Name)
	}
	return names
}

// lookup finds a workload of the catalog by name.
func (cat Catalog) lookup(name string) (workload.Workload, bool) {
	for _, w := range cat.Workloads {
		if w.Info().Name == name {
			return w, true
		}
	}
	return nil, false
}

// ParseRules parses rules given as flag values, each of which may hold
// several comma-separated rules.
func (cat Catalog) ParseRules(values []string) ([]Rule, error) {
	var out []Rule
	for _, v := range values {
		for _, text := range splitRules(v) {
			if text = strings.TrimSpace(text); text == "" {
				continue
			}
			r, err := cat.ParseRule(text)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// splitRules splits a flag value at the commas between rules. A comma
// before the rule's ':' is inside its environment's name, in a CPU list
// (docker-bridge+cpuset=0,2:cpu.prime=5%), and does not split.
func splitRules(v string) []string {
	var out []string
	pending := ""
	for _, part := range strings.Split(v, ",") {
		if pending != "" {
			part = pending + "," + part
		}
		if !strings.Contains(part, ":") && strings.Contains(part, "+cpuset=") {
			pending = part
			continue
		}
		pending = ""
		out = append(out, part)
	}
	if pending != "" {
		out = append(out, pending)
	}
	return out
}
