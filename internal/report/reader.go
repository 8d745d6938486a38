package report

import (
	"fmt"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// Envs lists the study's environments in spec order, the baseline first,
// and any other its runs name: those without data among them.
func (r *Report) Envs() []string { return r.envs }

// Factors lists the study's factors other than env, sorted.
func (r *Report) Factors() []string { return r.factors }

// Layout is what Build was given from the study's spec.
func (r *Report) Layout() Layout { return r.layout }

// OfCells is a report of cells computed elsewhere, over the environments
// envs (the baseline first): what the gate and the published values read,
// without a stored study.
func OfCells(envs []string, cells []Cell) *Report {
	return &Report{Schema: Schema, Cells: cells, envs: envs, Failures: []Failure{}, Warnings: []string{}}
}

// Host is the machine's facts the study recorded.
func (r *Report) Host() hostinfo.Host { return r.host }

// Param is the workload parameter name as c's runs had it: the first run
// of c's workload, environment and row group that has it.
func (r *Report) Param(c *Cell, name string) (string, bool) {
	for _, run := range r.runs {
		if run.Workload == c.Workload && run.Env == c.Env && groupKey(run.CellKey) == c.Group {
			if p, ok := run.Params[name]; ok {
				return fmt.Sprint(p), true
			}
		}
	}
	return "", false
}

// Rounds is the round (block) of each of c's values, parallel to Values.
func (c *Cell) Rounds() []int { return c.reps }
