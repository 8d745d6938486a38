package report

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
