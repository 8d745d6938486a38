package sched

// Leibniz adds the first terms of the Leibniz series 4 (1 - 1/3 + 1/5 - ...)
// for pi, one floating-point division a term: the busy work of the thesis's
// task (seed 002, Appendix A) and of load.cpu (stress-ng's pi method, the
// thesis's load, uses Ramanujan's series instead: docs/seeds.md). It calls
// nothing and is safe inside a measuring loop. Keep the result (add it to a
// field of the caller's), so that the compiler cannot drop the loop.
//
//go:nosplit
func Leibniz(terms int) float64 {
	pi, sign, den := 0.0, 4.0, 1.0
	for range terms {
		pi += sign / den
		sign = -sign
		den += 2
	}
	return pi
}
