package gate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/workload"
)

// ParseRule parses one rule, ENV:WORKLOAD[.METRIC]=LIMIT%. The split of
// WORKLOAD.METRIC is resolved against the catalog's workloads, the longest
// workload name first, as both contain dots.
func (cat Catalog) ParseRule(text string) (Rule, error) {
	r := Rule{Text: text}
	bad := func(format string, a ...any) (Rule, error) {
		return Rule{}, fmt.Errorf("--max-overhead %q: %s", plainText(text), fmt.Sprintf(format, a...))
	}
	// The environment ends at the first ':' and the limit starts at the
	// first '=' after it: an environment's options hold '=' too
	// (docker-bridge+storage=bind:cpu.prime=5%).
	envName, rest, ok := strings.Cut(text, ":")
	if !ok && !strings.Contains(text, "=") {
		return bad("no limit: write %s", RuleForm)
	} else if !ok {
		return bad("no environment: write %s", RuleForm)
	}
	what, limit, ok := strings.Cut(rest, "=")
	if !ok {
		return bad("no limit: write %s", RuleForm)
	}
	envName, what, limit = strings.TrimSpace(envName), strings.TrimSpace(what), strings.TrimSpace(limit)
	num, ok := strings.CutSuffix(limit, "%")
	if !ok {
		return bad("the limit %q is not a percentage: write it with %%, e.g. =5%%", plainText(limit))
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(pct) || math.IsInf(pct, 0) || pct < 0 {
		return bad("the limit %q is not a percentage of 0 or more, e.g. =5%%", plainText(limit))
	}
	r.LimitPct = pct
	switch {
	case envName == "":
		return bad("no environment before ':': name one or * for every one but the baseline; valid environments: *, %s", strings.Join(cat.Envs, ", "))
	case envName != All && !slices.Contains(cat.Envs, env.BaseName(envName)): // with options: its base
		return bad("unknown environment %q; valid environments: *, %s", plainText(envName), strings.Join(cat.Envs, ", "))
	case envName != All:
		// Named as the study names it: options in key order, none that
		// restates the default (env.ParseName's checks).
		canon, err := engines.Check(envName)
		if err != nil {
			return bad("%s", plainText(err.Error()))
		}
		envName = canon
	}
	r.Env = envName
	switch {
	case what == "":
		return bad("no workload after ':': name one, WORKLOAD.METRIC, or *; valid workloads: %s", strings.Join(cat.workloadNames(), ", "))
	case what == All:
		r.Workload = All
		return r, nil
	}
	wl, metric, err := cat.splitWorkloadMetric(what)
	if err != nil {
		return bad("%v", err)
	}
	r.Workload, r.Metric = wl, metric
	return r, nil
}

// splitWorkloadMetric splits WORKLOAD[.METRIC] at the longest catalog
// workload name that has the metric.
func (cat Catalog) splitWorkloadMetric(s string) (wl, metric string, err error) {
	var candidates []string
	for _, n := range cat.workloadNames() {
		if s == n || strings.HasPrefix(s, n+".") {
			candidates = append(candidates, n)
		}
	}
	if len(candidates) == 0 {
		if strings.HasPrefix(s, All+".") {
			return "", "", fmt.Errorf("a metric needs its workload: name the workload (WORKLOAD.METRIC), or * alone for every primary metric of every workload")
		}
		return "", "", fmt.Errorf("unknown workload %q; valid workloads: *, %s", plainText(s), strings.Join(cat.workloadNames(), ", "))
	}
	sort.SliceStable(candidates, func(i, j int) bool { return len(candidates[i]) > len(candidates[j]) })
	for _, n := range candidates {
		if s == n {
			return n, "", nil
		}
		w, _ := cat.lookup(n)
		if _, ok := w.Info().Metric(s[len(n)+1:]); ok {
			return n, s[len(n)+1:], nil
		}
		if _, dynamic := w.(workload.MetricDeclarer); dynamic {
			// Its metrics come from the study's parameters (cmd's figures):
			// a name matching none of its cells leaves the rule with
			// nothing to check, which fails it.
			return n, s[len(n)+1:], nil
		}
	}
	n := candidates[0]
	w, _ := cat.lookup(n)
	var names []string
	for _, m := range w.Info().Metrics {
		names = append(names, m.Name)
	}
	return "", "", fmt.Errorf("workload %s has no metric %q; its metrics: %s", n, plainText(s[len(n)+1:]), strings.Join(names, ", "))
}
