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

// NotePoll is the note in which http.gateway's client says how long it
// busy-polled before it slept ("0s": never).
const NotePoll = "poll"

// probeCost warns, once per workload and environment, where the client of a
// network workload used more than ProbeCPUShare of a CPU on a host with few
// CPUs, naming the server's share beside it, and, on any host, where the
// client busy-polled for answers (http.gateway's poll, noted by its runs):
// an option that spends the client's CPU for the whole load. Runs before
// the probes measured their CPU (no cpu_pct note) say nothing of it.
func probeCost(runs []store.Run, hostCPUs int) []Warning {
	type shares struct {
		client, server []float64
		poll           string // a poll other than 0 that a run noted
	}
	byCell := map[string]*shares{}
	var order []string
	for _, run := range runs {
		if run.Warmup || run.Status != store.RunOK {
			continue
		}
		cell := run.Workload + " @ " + run.Env
		s := byCell[cell]
		if s == nil {
			s = &shares{}
			byCell[cell] = s
			order = append(order, cell)
		}
		if p := run.Notes[NotePoll]; p != "" && p != "0s" {
			s.poll = p
		}
		c, err := strconv.ParseFloat(run.Notes[worker.NoteCPUPercent], 64)
		if err != nil {
			continue
		}
		s.client = append(s.client, c)
		if v, err := strconv.ParseFloat(run.Notes["server."+worker.NoteCPUPercent], 64); err == nil {
			s.server = append(s.server, v)
		}
	}
	var out []Warning
	for _, cell := range order {
		s := byCell[cell]
		if s.poll != "" {
			msg := fmt.Sprintf("the client busy-polled for answers (parameter poll: %s): it kept its CPU busy for the whole load, and its CPU time includes the polling; poll: 0, the default, sleeps instead", s.poll)
			out = append(out, Warning{Kind: WarnNote, Text: cell + ": " + msg, Subject: cell, Message: msg})
		}
		if hostCPUs <= 0 || hostCPUs > ProbeFewCPUs || len(s.client) == 0 {
			continue
		}
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
