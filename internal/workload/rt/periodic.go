package rt

import (
	"context"

	"github.com/boxtax/boxtax/internal/workload"
)

// Periodic is the rt.periodic workload: the thesis's Pi component, a
// time-triggered task at frequency_hz that computes pi for occupancy_pct of
// each slice and sleeps the rest.
var Periodic = workload.Define[config](workload.Info{
	Name:     "rt.periodic",
	Summary:  "time-triggered task: pi for 80 % of each 10 ms slice at SCHED_FIFO 49, every slice timestamped",
	SeedTool: "OpenDaVINCI Pi component (Masek & Thulin 2016, Appendix A.1)",
	Metrics:  metrics(false),
})

// PeriodicIO is the rt.periodic-io workload: the Pi/IO component, which also
// captures a frame and writes it to disk at the start of each slice.
var PeriodicIO = workload.DefineFrom(workload.Info{
	Name:     "rt.periodic-io",
	Summary:  "rt.periodic at 10 Hz that also captures a frame and writes it to disk in each slice",
	SeedTool: "OpenDaVINCI Pi/IO component (Masek & Thulin 2016, Appendix A.2)",
	Metrics:  metrics(true),
}, func() *config { return &config{io: true} })

// Run implements workload.Config.
func (c *config) Run(ctx context.Context, env workload.Env, e workload.Emitter) error {
	return run(ctx, c, env, e)
}

// metrics are the run's figures; every slice is in the series.
func metrics(io bool) []workload.Metric {
	ms := []workload.Metric{
		{Name: "latency_p50_us", Unit: "us", Label: "wake p50 us", Description: "median wake-up latency: point 1 minus the slice's intended start"},
		{Name: "latency_p99_us", Unit: "us", Label: "wake p99 us", Description: "99th percentile of the wake-up latency"},
		{Name: "latency_p999_us", Unit: "us", Label: "wake p99.9 us", Description: "99.9th percentile of the wake-up latency", Secondary: true},
		{Name: "latency_max_us", Unit: "us", Label: "wake max us", Description: "largest wake-up latency of the run"},
		{Name: "violations_pct", Unit: "%", Label: "overruns %", Description: "share of slices whose work ended (point 4) after the slot's end, the next slice's intended start"},
		{Name: "slice_used_pct", Unit: "%", Label: "slice used %", Description: "mean share of the slot used before the task slept: (point 4 minus intended start) / period, the thesis's Figs. 5.3-5.4 without the sleep"},
		{Name: "oh1_mean_ns", Unit: "ns", Label: "oh1 ns", Description: "mean overhead before the work (points 1-2)", Secondary: true},
		{Name: "oh1_std_ns", Unit: "ns", Label: "oh1 std ns", Description: "standard deviation of the overhead before the work", Secondary: true},
	}
	if io {
		ms = append(ms,
			workload.Metric{Name: "capture_mean_ns", Unit: "ns", Label: "capture ns", Description: "mean time to capture a frame"},
			workload.Metric{Name: "capture_std_ns", Unit: "ns", Label: "capture std ns", Description: "standard deviation of the capture time", Secondary: true},
			workload.Metric{Name: "write_mean_ns", Unit: "ns", Label: "write ns", Description: "mean time to write a frame to disk (and sync it, if asked)"},
			workload.Metric{Name: "write_std_ns", Unit: "ns", Label: "write std ns", Description: "standard deviation of the write time", Secondary: true},
		)
	}
	ms = append(ms,
		workload.Metric{Name: "work_mean_ns", Unit: "ns", Label: "work ns", Description: "mean duration of the work (points 2-3; after the frame's write in rt.periodic-io)"},
		workload.Metric{Name: "work_std_ns", Unit: "ns", Label: "work std ns", Description: "standard deviation of the work's duration", Secondary: true},
		workload.Metric{Name: "oh2_mean_ns", Unit: "ns", Label: "oh2 ns", Description: "mean overhead after the work (points 3-4)", Secondary: true},
		workload.Metric{Name: "oh2_std_ns", Unit: "ns", Label: "oh2 std ns", Description: "standard deviation of the overhead after the work", Secondary: true},
		workload.Metric{Name: "sleep_mean_ns", Unit: "ns", Label: "sleep ns", Description: "mean sleep, from point 4 to the next slice's point 1 (the wake-up latency included)"},
		workload.Metric{Name: "sleep_std_ns", Unit: "ns", Label: "sleep std ns", Description: "standard deviation of the sleep", Secondary: true},
		workload.Metric{Name: "slices", Unit: "slices", Label: "slices", Description: "slices recorded (the warm-up slice not counted)", Secondary: true},
		workload.Metric{Name: "skipped_slots", Unit: "slots", Label: "skipped", Description: "whole slots skipped after overruns longer than a period", Secondary: true},
	)
	return ms
}
