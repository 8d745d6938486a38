// Package cpu holds the built-in processor workloads: cpu.prime, sysbench's
// prime-counting CPU test, and cpu.linpack, a dense LU solve in the manner
// of the LINPACK benchmark. Both are pure Go and compute-bound, so in a
// container they should cost nothing beyond what the kernel's scheduler and
// cgroup accounting add; a difference from native points at CPU limits,
// cpuset placement or frequency scaling rather than at the container itself.
package cpu
