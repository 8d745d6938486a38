package testenv

import "github.com/boxtax/boxtax/internal/store"

// NativeAndBridgeRuns is a finished study of one workload in two
// environments, as the store gives it back: one successful run a value,
// the first half of values in native and the second half in docker-bridge,
// each run with one sample of metric in unit.
func NativeAndBridgeRuns(workload, metric, unit string, values ...float64) ([]store.Run, []store.Sample) {
	var runs []store.Run
	var samples []store.Sample
	for i, v := range values {
		env := "native"
		if i >= len(values)/2 {
			env = "docker-bridge"
		}
		runs = append(runs, store.Run{ID: int64(i + 1), Seq: i, CellKey: workload + "|env=" + env, Workload: workload, Env: env,
			Levels: map[string]string{"env": env}, Status: store.RunOK})
		samples = append(samples, store.Sample{RunID: int64(i + 1), Metric: metric, Value: v, Unit: unit})
	}
	return runs, samples
}
