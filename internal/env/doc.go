// Package env defines where a workload runs: an Environment starts the boxtax
// worker natively or inside a container and streams its protocol output back.
// Environments register by name; an unknown name answers with the valid ones.
package env
