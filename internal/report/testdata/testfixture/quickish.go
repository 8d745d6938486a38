// Package testfixture holds stored studies that the report packages'
// tests build reports from, written once: report and papers cannot share
// a test file, and a fixture copied into both drifts.
package testfixture

import (
	"maps"
	"slices"
	"time"

	"github.com/boxtax/boxtax/internal/store"
)

// EpycHost is the host facts of the README's quick study: a 2-vCPU AMD
// EPYC VM with Docker 20.10 on fuse-overlayfs.
const EpycHost = `{"hostname":"vm","cpus":2,"cpu_model":"AMD EPYC","mem_total_bytes":25232932864,"kernel_release":"6.18.44","docker":{"server_version":"20.10.24","storage_driver":"fuse-overlayfs"}}`

// Study is a stored study: its record, runs and samples, and the layout
// of its report (baseline, environments, workloads).
type Study struct {
	Study     store.Study
	Runs      []store.Run
	Samples   []store.Sample
	Baseline  string
	Envs      []string
	Workloads []string
}

// Quickish is a study of mem.stream, disk.seq and net.rr over TCP, with
// three runs per cell in native, docker-bridge and docker-host.
func Quickish() Study { return QuickishOn(1, EpycHost, 1, 0.97, true) }

// QuickishOn is Quickish as study id on another host: speed scales every
// value, bridge the docker-bridge environment's; withNet adds net.rr.
func QuickishOn(id int64, host string, speed, bridge float64, withNet bool) Study {
	st := store.Study{ID: id, Name: "quick", Status: store.StudyFinished, Seed: 5,
		CreatedAt: time.Date(2026, 11, 21, 4, 53, 0, 0, time.UTC),
		HostJSON:  host,
		SpecYAML:  "name: quick\n"}
	envs := []string{"native", "docker-bridge", "docker-host"}
	var runs []store.Run
	var samples []store.Sample
	values := map[string]map[string]float64{
		"mem.stream": {"copy_MBps": 15916, "scale_MBps": 26880, "add_MBps": 24871, "triad_MBps": 19424},
		"disk.seq":   {"write_MBps": 589.1, "read_MBps": 1288, "rewrite_MBps": 1048},
		"net.rr":     {"transactions_per_s": 20000, "rtt_mean_us": 50, "rtt_p50_us": 45, "rtt_p99_us": 90},
	}
	factor := map[string]float64{"native": speed, "docker-bridge": speed * bridge, "docker-host": speed * 1.01}
	jitter := []float64{-0.004, 0, 0.005}
	wls := []string{"mem.stream", "disk.seq"}
	if withNet {
		wls = append(wls, "net.rr")
	}
	for rep := range 3 {
		for _, env := range envs {
			for _, wl := range wls {
				id := int64(len(runs) + 1)
				params := map[string]any{}
				if wl == "net.rr" {
					params["protocol"] = "tcp"
				}
				runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: wl + "|env=" + env, Workload: wl, Env: env,
					Levels: map[string]string{"env": env}, Params: params, Status: store.RunOK})
				for _, m := range slices.Sorted(maps.Keys(values[wl])) {
					v := values[wl][m] * factor[env] * (1 + jitter[rep])
					samples = append(samples, store.Sample{RunID: id, Metric: m, Value: v, Unit: "x"})
				}
			}
		}
	}
	return Study{Study: st, Runs: runs, Samples: samples, Baseline: "native", Envs: envs, Workloads: []string{"mem.stream", "disk.seq", "net.rr"}}
}
