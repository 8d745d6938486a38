// Package env defines where a workload runs: an Environment starts the boxtax
// binary with the arguments it is given (the worker's, made by
// internal/worker) natively or inside a container and copies its output back.
// Each engine's environments live in a package of their own (env/docker,
// env/podman, env/lxc); env/engines opens any of them by name, and an
// unknown name answers with the valid ones.
package env
