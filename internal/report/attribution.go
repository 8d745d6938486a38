package report

import (
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/stats"
)

// Attribution splits the overhead of one container environment (the full
// container, e.g. docker-bridge) against the baseline into the parts its
// mechanisms explain. Each part is measured by a variant of that
// environment with one mechanism switched off (docker-bridge+network=host,
// +seccomp=unconfined, +storage=bind): the part is what switching it off
// removed, (full - variant) / baseline, in percentage points of the
// baseline's mean. A variant with every one of those switched off at once
// (and perhaps more) measures the rest (namespaces, cgroups, the runtime); what neither
// explains is left as unexplained (interactions, noise). See
// docs/attribution.md.
type Attribution struct {
	Workload string            `json:"workload"`
	Levels   map[string]string `json:"levels,omitempty"` // non-env factor levels of the row
	Metric   string            `json:"metric"`
	Label    string            `json:"label"`
	Env      string            `json:"env"`      // the full container
	Baseline string            `json:"baseline"` // e.g. native
	// TotalPct is the full container's deviation from the baseline mean, in
	// percent, with its 95 % interval (Fieller's, as the tables).
	TotalPct    *float64   `json:"total_pct"`
	TotalCI95   []*float64 `json:"total_ci95"`
	Significant bool       `json:"total_significant"`
	// Parts are the mechanisms switched off one at a time.
	Parts []AttributionPart `json:"parts"`
	// Rest is the deviation that remains with every part's mechanism
	// switched off at once, when the study measured that variant.
	Rest *AttributionPart `json:"rest,omitempty"`
	// UnexplainedPP is total minus the parts and the rest, in percentage
	// points: interactions between mechanisms and noise.
	UnexplainedPP *float64 `json:"unexplained_pp"`
	// Others are variants that swap or add a mechanism (runtime=crun,
	// storage=tmpfs, cpus=1): what switching to them changes.
	Others []AttributionPart `json:"others,omitempty"`
}

// AttributionPart is one mechanism's part of an overhead.
type AttributionPart struct {
	Option    string `json:"option"`    // the variant's options, e.g. network=host
	Env       string `json:"env"`       // the variant environment
	Mechanism string `json:"mechanism"` // what the option switches, in words
	// PP is the part in percentage points of the baseline mean, with its 95 %
	// interval (delta method, Welch-Satterthwaite degrees of freedom).
	PP          *float64   `json:"pp"`
	CI95        []*float64 `json:"ci95"`
	Significant bool       `json:"significant"`
	// SharePct is PP as a percentage of the total overhead; null when the
	// total is not distinguishable from zero (a share of noise means nothing).
	SharePct *float64 `json:"share_pct"`
}

// buildAttributions finds, for every environment of the study that has
// variants in it, how its overhead splits over the variants' mechanisms.
// What each option switches, and whether it switches a mechanism off, is
// env's option table (env.Option.Removes, Mechanism).
func (r *Report) buildAttributions() {
	baseline := r.Study.Baseline
	for _, full := range r.envs {
		if _, v, err := env.ParseName(full); full == baseline || err != nil || len(v) > 0 && !r.referenceVariant(full) {
			continue
		}
		var parts, others []string
		var keys []string // of the removal parts, for the rest variant
		for _, e := range r.envs {
			opts := variantOf(e, full).Options()
			if len(opts) != 1 {
				continue
			}
			if _, removal := opts[0].Removes(); removal {
				parts = append(parts, e)
				keys = append(keys, opts[0].String())
			} else {
				others = append(others, e)
			}
		}
		if len(parts) == 0 && len(others) == 0 {
			continue
		}
		// The rest: a variant with every part's mechanism switched off at
		// once (and perhaps more), only removals, the fewest options.
		rest, restN := "", 0
		for _, e := range r.envs {
			opts := variantOf(e, full).Options()
			if len(opts) < 2 || len(keys) == 0 || !removalsOnly(opts) || !containsAll(optionStrings(opts), keys) {
				continue
			}
			if rest == "" || len(opts) < restN {
				rest, restN = e, len(opts)
			}
		}
		for _, row := range r.Rows() {
			if a := attribute(row, baseline, full, parts, rest, others); a != nil {
				r.Attributions = append(r.Attributions, *a)
			}
		}
	}
}

// variantOf is what e changes of the environment full: e's options that
// full has not, or has with another value (podman-bridge+runtime=runsc
// against podman-bridge+runtime=runc is runtime=runsc); nil when e is
// another environment, full itself, or lacks one of full's options.
func variantOf(e, full string) env.Variant {
	base, v, err := env.ParseName(e)
	fullBase, fullV, fullErr := env.ParseName(full)
	if err != nil || fullErr != nil || base != fullBase || e == full {
		return nil
	}
	out := env.Variant{}
	for k := range fullV {
		if _, ok := v[k]; !ok {
			return nil
		}
	}
	for k, val := range v {
		if fullV[k] != val {
			out[k] = val
		}
	}
	return out
}

// referenceVariant tells whether full, an environment with options, is the
// reference of its base's variants: the base itself is not in the study
// and full is the first of them in the study's order. The runtimes preset
// has podman-bridge+runtime=runc first, so its report reads "switching to
// runtime=runsc changes it by ...", as a study with podman-bridge would.
func (r *Report) referenceVariant(full string) bool {
	base := env.BaseName(full)
	for _, e := range r.envs {
		if e == base {
			return false
		}
		if env.BaseName(e) == base {
			return e == full
		}
	}
	return false
}

// removalsOnly tells whether every option switches a mechanism off.
func removalsOnly(opts []env.Option) bool {
	for _, o := range opts {
		if _, ok := o.Removes(); !ok {
			return false
		}
	}
	return true
}

func optionStrings(opts []env.Option) []string {
	var out []string
	for _, o := range opts {
		out = append(out, o.String())
	}
	return out
}

// optionText is a variant's options as its name writes them: network=host+seccomp=unconfined.
func optionText(v env.Variant) string { return strings.Join(optionStrings(v.Options()), "+") }

func containsAll(set, want []string) bool {
	for _, w := range want {
		if !slices.Contains(set, w) {
			return false
		}
	}
	return true
}

func attribute(row Row, baseline, full string, parts []string, rest string, others []string) *Attribution {
	base, fc := row.Cells[baseline], row.Cells[full]
	if base == nil || fc == nil || base.absolute || len(base.Values) == 0 || len(fc.Values) == 0 {
		return nil
	}
	a := &Attribution{Workload: fc.Workload, Metric: fc.Metric, Label: fc.Label, Env: full, Baseline: baseline,
		TotalPct: fc.OverheadPct, TotalCI95: fc.OverheadCI95, Significant: fc.Significant, Parts: []AttributionPart{}}
	if len(fc.Levels) > 1 {
		a.Levels = map[string]string{}
		for k, v := range fc.Levels {
			if k != "env" {
				a.Levels[k] = v
			}
		}
	}
	if a.TotalPct == nil {
		return nil
	}
	explained := 0.0
	part := func(name string, removal bool) *AttributionPart {
		vc := row.Cells[name]
		if vc == nil || len(vc.Values) == 0 {
			return nil
		}
		opts := variantOf(name, full).Options()
		opt := optionText(variantOf(name, full))
		var d stats.ScaledDifference
		if removal { // what switching it off removed
			d = stats.DifferenceOfMeans(fc.Values, vc.Values, base.Values, 0.95)
		} else { // what switching to it changes
			d = stats.DifferenceOfMeans(vc.Values, fc.Values, base.Values, 0.95)
		}
		p := &AttributionPart{Option: opt, Env: name, PP: finite(d.Pct), CI95: []*float64{finite(d.LoPct), finite(d.HiPct)},
			Significant: d.Significant}
		if len(opts) == 1 {
			what, ok := opts[0].Removes()
			if !ok {
				what = opts[0].Mechanism()
			}
			p.Mechanism = what
		}
		if removal && a.Significant && p.PP != nil && *a.TotalPct != 0 {
			p.SharePct = finite(*p.PP / *a.TotalPct * 100)
		}
		return p
	}
	for _, e := range parts {
		if p := part(e, true); p != nil {
			a.Parts = append(a.Parts, *p)
			explained += *nz(p.PP)
		}
	}
	if rest != "" {
		if rc := row.Cells[rest]; rc != nil && rc.OverheadPct != nil {
			a.Rest = &AttributionPart{Option: optionText(variantOf(rest, full)), Env: rest,
				Mechanism: "the rest: namespaces, cgroups, the runtime (all of the above switched off)",
				PP:        rc.OverheadPct, CI95: rc.OverheadCI95, Significant: rc.Significant}
			if a.Significant && *a.TotalPct != 0 {
				a.Rest.SharePct = finite(*rc.OverheadPct / *a.TotalPct * 100)
			}
			explained += *rc.OverheadPct
		}
	}
	if len(a.Parts) > 0 {
		a.UnexplainedPP = finite(*a.TotalPct - explained)
	}
	for _, e := range others {
		if p := part(e, false); p != nil {
			a.Others = append(a.Others, *p)
		}
	}
	return a
}

func nz(p *float64) *float64 {
	if p == nil {
		z := 0.0
		return &z
	}
	return p
}
