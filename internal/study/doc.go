// Package study turns a study spec (YAML, or a preset embedded in the binary)
// into a plan of runs in randomized, interleaved order, and executes the plan:
// each run starts the worker in its environment, reads its samples and
// commits them to the store when the run ends.
//
// A study's life: Start stores a new one, Resume reopens an unfinished one,
// Runner does the pending runs. Open reads a stored study back (Stored) for
// the reports, analyses and comparisons made from it.
//
// How one run is carried out (its procedure, client and server, wires,
// background loads) is package launch, below this one.
package study
