// Package workload defines what a workload is: something that does work and
// reports metrics as samples. Workloads register themselves by name; the
// worker process looks them up and runs one. A workload never knows whether
// it runs natively or inside a container: it gets its parameters and a place
// for scratch files, and writes samples to an Emitter.
package workload
