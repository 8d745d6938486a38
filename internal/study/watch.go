package study

import (
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

// Monitor prefixes: what the host did during a run, and what it cost in energy.
const (
	MonitorPrefix = "mon."
	EnergyPrefix  = "energy."
)

// addTrace turns what the monitors saw during a run into the run's samples
// (the mean of each reading, the energy figures), series (every tick) and notes.
func (e *executedRun) addTrace(tr monitor.Trace, absent map[string]string, wl workload.Info) {
	for _, name := range tr.Names() {
		if mean, ok := tr.Mean(name); ok {
			e.extra = append(e.extra, store.Sample{RunID: e.ID, Metric: MonitorPrefix + name, Value: mean, Unit: tr.Units[name]})
		}
		e.extraSeries = append(e.extraSeries, store.Series{RunID: e.ID, Name: MonitorPrefix + name, Unit: tr.Units[name], Values: tr.Series[name]})
	}
	if len(tr.Times) > 0 {
		offsets := make([]float64, len(tr.Times))
		for i, t := range tr.Times {
			offsets[i] = t.Sub(tr.Start).Seconds()
		}
		e.extraSeries = append(e.extraSeries, store.Series{RunID: e.ID, Name: MonitorPrefix + "time", Unit: "s", Values: offsets})
	}
	if len(absent) > 0 {
		var parts []string
		for k, v := range absent {
			parts = append(parts, k+": "+v)
		}
		sort.Strings(parts)
		e.Notes["monitors_absent"] = strings.Join(parts, "; ")
	}
	if tr.Energy == nil {
		return
	}
	en := tr.Energy
	delay := tr.End.Sub(tr.Start).Seconds()
	e.Notes["power_source"] = en.Source
	if en.Estimated {
		e.Notes["power_warning"] = "power and energy are estimated from CPU utilisation with the user's idle/full-load model, not measured"
	}
	add := func(metric, unit string, v float64) {
		e.extra = append(e.extra, store.Sample{RunID: e.ID, Metric: EnergyPrefix + metric, Value: v, Unit: unit})
	}
	add("energy_J", "J", en.Joules)
	add("power_avg_W", "W", en.AvgWatts)
	add("edp_Js", "J*s", en.Joules*delay) // Energy-Delay Product: energy x run time
	if m, ok := primaryMetric(wl); ok && en.AvgWatts > 0 {
		for _, s := range e.samples() {
			if s.Instance == 0 && s.Metric == m.Name {
				add("efficiency_per_W", m.Unit+"/W", s.Value/en.AvgWatts)
			}
		}
	}
}

// primaryMetric is the workload's main figure: its first metric that is a
// throughput (higher is better) and not secondary.
func primaryMetric(info workload.Info) (workload.Metric, bool) {
	for _, m := range info.Metrics {
		if m.HigherIsBetter && !m.Secondary {
			return m, true
		}
	}
	return workload.Metric{}, false
}
