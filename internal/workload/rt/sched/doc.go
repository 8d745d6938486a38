// Package sched holds what a time-triggered task needs from Linux and from
// the Go runtime to keep its deadlines: a real-time policy and priority on its
// own OS thread, CPU pinning, locked memory, absolute-time sleeps on
// CLOCK_MONOTONIC, and a measuring loop the Go scheduler never interrupts.
//
// The Go runtime preempts a goroutine that has run for 10 ms without passing
// through the scheduler: it sets a flag checked at every function prologue and
// sends SIGURG. For a goroutine locked to a SCHED_FIFO thread, a preemption
// hands the thread's P to another (SCHED_OTHER) thread and waits for it to hand
// it back: when real-time load keeps every CPU busy, that wait lasts as long as
// the load lets ordinary threads run, tens of milliseconds. A C program would
// never see it. So the measuring loops of package rt and package load call only
// functions marked go:nosplit (no prologue check) and raw system calls, and
// block SIGURG on their thread while they measure (BlockPreemption). Nothing in
// them allocates, and garbage collection is switched off while they run, so
// no stop-the-world can be requested either.
package sched
