package report

import (
	"fmt"
	"strconv"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/worker"
)

// What the measuring may cost before the report says so (issue 40): on a
// host of at most ProbeFewCPUs CPUs (the seeds' boards had 1-4), a client
// that keeps more than ProbeCPUShare of one CPU busy takes it from the
// server it measures, and the container's extra work (NAT, the bridge)
// then meets a busier CPU than the native run did.
const (
	ProbeFewCPUs  = 4
	ProbeCPUShare = 50.0 // percent of one CPU, the median over a cell's runs
)

// probeCost warns, once per workload and environment, where the client of a
// network workload used more than ProbeCPUShare of a CPU on a host with few
// CPUs, naming the server's share beside it. Runs before the probes
// measured their CPU (no cpu_pct note) say nothing.
func probeCost(runs []store.Run, hostCPUs int) []Warning {
	if hostCPUs <= 0 || hostCPUs > ProbeFewCPUs {
		return nil
	}
	type shares struct{ client, server []float64 }
	byCell := map[string]*shares{}
	var order []string
	for _, run := range runs {
		if run.Warmup || run.Status != store.RunOK {
			continue
		}
		c, err := strconv.ParseFloat(run.Notes[worker.NoteCPUPercent], 64)
		if err != nil {
			continue
		}
		cell := run.Workload + " @ " + run.Env
		s := byCell[cell]
		if s == nil {
			s = &shares{}
			byCell[cell] = s
			order = append(order, cell)
		}
		s.client = append(s.client, c)
		if v, err := strconv.ParseFloat(run.Notes["server."+worker.NoteCPUPercent], 64); err == nil {
			s.server = append(s.server, v)
		}
	}
	var out []Warning
	for _, cell := range order {
		s := byCell[cell]
		client := stats.Median(s.client)
		if client <= ProbeCPUShare {
			continue
		}
		server := ""
		if len(s.server) > 0 {
			server = fmt.Sprintf(", the server %.0f %%", stats.Median(s.server))
		}
		msg := fmt.Sprintf("the client used %.0f %% of a CPU%s (medians of %d runs) on a host of %d CPUs: the probe competed for the CPU with what it measured (more than %.0f %% of a CPU is flagged)",
			client, server, len(s.client), hostCPUs, ProbeCPUShare)
		out = append(out, Warning{Kind: WarnNote, Text: cell + ": " + msg, Subject: cell, Message: msg})
	}
	return out
}
