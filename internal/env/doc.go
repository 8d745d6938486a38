// Package env defines where a workload runs: an Environment starts the boxtax
// binary with the arguments it is given (the worker's, made by
// internal/worker) natively or inside a container and copies its output back.
// Environments register by name; an unknown name answers with the valid ones.
package env
