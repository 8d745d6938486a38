// Package npb holds the five kernels of the NAS Parallel Benchmarks (NPB
// 3.x) as boxtax workloads: npb.is (integer sort), npb.ep (embarrassingly
// parallel Gaussian pairs), npb.cg (conjugate gradient), npb.mg (multigrid)
// and npb.ft (3-D FFT), in classes S, W and A, as Marques et al. (seed 004)
// ran them on a Raspberry Pi 2.
//
// Each kernel is re-implemented in Go after NPB 3.3's reference code (the
// OpenMP C version of NPB3.3-OMP), not translated line by line: the same
// problem generator (NPB's linear congruential generator randlc/vranlc,
// x_{k+1} = 5^13 x_k mod 2^46, with NPB's seeds), the same iteration counts
// and the same operation counts for Mop/s. The verification values are
// NPB's, as data. A run is valid only when its result matches NPB's official
// verification values for the class within NPB's tolerance; otherwise the
// run fails with an error and reports no number, exactly as a C or Fortran
// NPB run prints VERIFICATION FAILED.
//
// The pseudo-applications (BT, SP, LU) and the parallel I/O and data
// movement benchmarks (UA, DC) of the paper's Figure 4 are not built here.
package npb
