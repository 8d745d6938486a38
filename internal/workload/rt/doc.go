// Package rt holds the time-triggered workloads of Masek & Thulin 2016
// (seed 002): rt.periodic, a task that wakes at a fixed rate, computes pi for
// a set share of each time slice and sleeps the rest, and rt.periodic-io, the
// same task capturing a camera frame and writing it to disk in each slice.
//
// Each slice is timestamped at four points, as in the thesis's Fig. 4.1:
// wake-up (1), start of the work (2), end of the work (3) and the moment the
// task goes back to sleep (4). Stored per slice, in nanoseconds: the overhead
// before the work (1-2), the work (2-3), the overhead after it (3-4), the sleep
// (4 to the next 1) and the wake-up latency (1 minus the intended start). The
// scheduling precision of the environment is what these distributions show;
// the run's samples summarise them and the series keep every slice.
//
// The task runs on its own OS thread at a real-time priority, with memory
// locked and absolute-time sleeps; how the Go runtime is kept out of its way
// is in package sched.
package rt
