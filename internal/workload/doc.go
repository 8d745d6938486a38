// Package workload defines what a workload is: something that does work and
// reports metrics as samples. Workloads register themselves by name; the
// worker process looks them up and runs one. A workload never knows whether
// it runs natively or inside a container: it gets its parameters and a place
// for scratch files, and writes samples to an Emitter.
//
// A workload's parameters are declared once, by its config's Declare method
// (see Decl), one line each with the field it sets, its default and its
// description. That declaration lists them for Info and parses them
// (Parse); Configure turns parameters into the config, which runs and
// answers every other question (Requirements, MemoryBytes, CheckHost, the
// sides of a client-server workload) without reading a parameter again.
// Most workloads are that config and their Info, declared as data and
// registered by Define (spec.go).
package workload
