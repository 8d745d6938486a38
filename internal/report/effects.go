package report

// Effect is one term of an analysis of variance of one metric: how much of
// the spread between runs a factor (env, threads, their interaction)
// explains, beside its test. Effect sizes are reported with p-values because
// with many runs every p-value becomes tiny (seed 002, Table 5.3).
type Effect struct {
	Workload     string   `json:"workload"`
	Metric       string   `json:"metric"`
	Term         string   `json:"term"`   // "env", "threads", "env:threads"
	Method       string   `json:"method"` // e.g. "two-way ANOVA, type II sums of squares"
	DF           float64  `json:"df"`
	DFResidual   float64  `json:"df_residual"`
	F            *float64 `json:"f"`
	P            *float64 `json:"p"`
	EtaSq        *float64 `json:"eta_sq"`         // SS_term / SS_total
	PartialEtaSq *float64 `json:"partial_eta_sq"` // SS_term / (SS_term + SS_residual)
}

// analyze is the hook where the analysis of variance plugs in. It returns
// nothing until internal/stats has ANOVA (being built beside this): then it
// runs, for every metric of every workload, the model env x (other factors)
// with the run as the unit of replication, and returns one Effect per term.
// Every format already shows Report.Effects when it is not empty; the HTML
// report says plainly that no analysis is stored while it is.
func analyze(*Report) []Effect { return nil }
