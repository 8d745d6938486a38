package sched

// Leibniz adds the first terms of the Leibniz series 4 (1 - 1/3 + 1/5 - ...)
// for pi: the busy work of the thesis's task (seed 002, Appendix A) and of
// stress-ng's pi method, one floating-point division a term. It calls
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
