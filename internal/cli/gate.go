package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/gate"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/workload"
)

// The overhead gate: --max-overhead on run and report makes boxtax exit
// with ExitOverheadExceeded when a container's overhead beyond noise
// exceeds a limit (package gate says how a cell is judged). The rules
// are parsed when the flag is read, checked against the study before
// anything runs, and judged on the finished report.

// gateCatalog is what a rule may name: every environment and every
// registered workload.
func gateCatalog() gate.Catalog {
	return gate.Catalog{Envs: engines.Names(), Workloads: workload.All()}
}

// gateFlag is --max-overhead RULE: repeatable, and a value may hold
// several comma-separated rules.
type gateFlag struct{ rules *[]gate.Rule }

func (f gateFlag) String() string {
	if f.rules == nil {
		return ""
	}
	var texts []string
	for _, r := range *f.rules {
		texts = append(texts, r.Text)
	}
	return strings.Join(texts, ",")
}

func (f gateFlag) Set(s string) error {
	rules, err := gateCatalog().ParseRules([]string{s})
	if err != nil {
		return err
	}
	if len(rules) == 0 {
		return fmt.Errorf("no rule: write %s", gate.RuleForm)
	}
	*f.rules = append(*f.rules, rules...)
	return nil
}

// addGateFlag declares --max-overhead and --fail-undecided on a command.
func addGateFlag(fs *flag.FlagSet, rules *[]gate.Rule, failUndecided *bool) {
	fs.Var(gateFlag{rules}, "max-overhead", "exit with code 4 when an overhead is shown to exceed a limit (its 95% interval lies above it); `RULE` is "+gate.RuleForm+
		"; * is every environment but the baseline, or every workload; WORKLOAD alone is its primary metrics; repeatable, or comma-separated (docs/user-guide.md, Gate it in CI)")
	fs.BoolVar(failUndecided, "fail-undecided", false, "with --max-overhead: fail also the cells not shown to be within their limit (the interval reaches past it)")
}

// checkGateSpec refuses rules that name what the study does not contain,
// before the study runs.
func checkGateSpec(rules []gate.Rule, spec *study.Spec) error {
	if len(rules) == 0 {
		return nil
	}
	scope := gate.Scope{Baseline: spec.Baseline, Envs: spec.EnvNames()}
	for _, w := range spec.Workloads {
		scope.Workloads = appendNew(scope.Workloads, w.Name)
	}
	if err := scope.Check(rules); err != nil {
		return usageError{err}
	}
	return nil
}

// checkGateReport refuses rules that name what a stored study does not
// contain: its spec's environments and workloads, and any its runs have.
func checkGateReport(rules []gate.Rule, rep *report.Report) error {
	if len(rules) == 0 {
		return nil
	}
	if err := gate.ScopeOf(rep).Check(rules); err != nil {
		return usageError{err}
	}
	return nil
}

// judgeGate judges the report against the rules, failing undecided cells
// too when asked, and keeps the result in it (the JSON report's gate
// field); nil without rules.
func judgeGate(rules []gate.Rule, rep *report.Report, failUndecided bool) *gate.Result {
	if len(rules) == 0 {
		return nil
	}
	res := gateCatalog().Judge(rep, rules, failUndecided)
	rep.Gate = &res
	return &res
}

// finishGate prints the gate's result to stderr and turns a failed gate
// into ExitOverheadExceeded.
func finishGate(g *Globals, res *gate.Result) error {
	if res == nil {
		return nil
	}
	if err := gate.Write(g.Stderr, *res); err != nil {
		return err
	}
	if res.Passed {
		return nil
	}
	var failed []string
	for _, r := range res.Rules {
		switch r.Status {
		case gate.Fail:
			msg := fmt.Sprintf("%s (%d of %d cells above the limit", r.Text, r.Failed, r.Checked)
			if res.FailUndecided && r.Undecided > 0 {
				msg += fmt.Sprintf(", %d not shown within it", r.Undecided)
			}
			failed = append(failed, msg+")")
		case gate.Unchecked:
			failed = append(failed, fmt.Sprintf("%s (no cell could be checked)", r.Text))
		}
	}
	return exitError{ExitOverheadExceeded, fmt.Errorf("overhead gate failed: %d of %d rules: %s", len(failed), len(res.Rules), strings.Join(failed, ", "))}
}

func appendNew(xs []string, s string) []string {
	if s == "" || slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}
