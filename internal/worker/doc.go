// Package worker is the boxtax worker: the process that runs one workload
// and reports on stdout in the protocol of internal/workload. It holds both
// ends of it. Invocation is its command line, made by the controller and
// parsed by `boxtax worker`; Main is what that command does; Start and Run
// start it in an environment and read what it says as it comes; Output is
// what one worker (or the instances or the two sides of a run) said, merged
// in one place.
//
// The study decides which workers a run starts and how; the environment
// starts an argument list without knowing what it is.
package worker
