package papers

import (
	"strings"
)

// runMetric describes a figure that every run of any workload may carry
// beside the workload's own metrics: the energy figures the power monitor
// adds (energy.energy_J, energy.edp_Js, ...). A published column can map to
// one, as seed 004's Energy-Delay Products do.
func runMetric(name string) (metricInfo, bool) {
	m, ok := map[string]metricInfo{
		"energy.energy_J":    {Label: "energy J", Unit: "J"},
		"energy.power_avg_W": {Label: "power W", Unit: "W"},
		"energy.edp_Js":      {Label: "EDP J*s", Unit: "J*s"},
	}[name]
	return m, ok
}

// metricInfo is the label and unit of a run metric.
type metricInfo struct{ Label, Unit string }

// label is how a table is named in comparisons: "Table III", or the
// paper's own name for a figure or section ("Fig. 4", "Section IV-D").
func (t Table) label() string {
	if strings.HasPrefix(t.Table, "Fig") || strings.HasPrefix(t.Table, "Section") {
		return t.Table
	}
	return "Table " + t.Table
}
