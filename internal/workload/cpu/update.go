package cpu

// updateTrailing does A22 -= L21 * U12 for the panel k0..k1-1: rows and
// columns from k1 on lose the product of the panel's columns of L (left of
// them, rows k1..n-1) and the panel's rows of U (above them).
//
// U12 is first copied transposed into pack, so that each element of the
// product is a dot product of two contiguous slices of length k1-k0. A 2x4
// register block of the product then costs 6 loads for 16 flops, which is
// what lets pure Go approach the processor's arithmetic rate.
func updateTrailing(m matrix, pack []float64, k0, k1 int) {
	n, kb := m.n, k1-k0
	cols := n - k1
	pack = pack[:cols*kb]
	for p := 0; p < kb; p++ {
		u := m.row(k0 + p)[k1:]
		for j, v := range u {
			pack[j*kb+p] = v
		}
	}
	i := k1
	for ; i+1 < n; i += 2 {
		update2Rows(m.row(i), m.row(i+1), pack, k0, k1)
	}
	if i < n {
		r := m.row(i)
		l := r[k0:k1]
		c := r[k1:]
		for j := range c {
			c[j] -= dot(l, pack[j*kb:(j+1)*kb])
		}
	}
}

// update2Rows updates the trailing parts of rows r0 and r1, four columns at
// a time, with the 2x4 register-blocked kernel.
func update2Rows(r0, r1, pack []float64, k0, k1 int) {
	kb := k1 - k0
	l0 := r0[k0:k1]
	l1 := r1[k0:k1][:len(l0)]
	c0 := r0[k1:]
	c1 := r1[k1:][:len(c0)]
	j := 0
	for ; j+3 < len(c0); j += 4 {
		u0 := pack[j*kb : (j+1)*kb][:len(l0)]
		u1 := pack[(j+1)*kb : (j+2)*kb][:len(l0)]
		u2 := pack[(j+2)*kb : (j+3)*kb][:len(l0)]
		u3 := pack[(j+3)*kb : (j+4)*kb][:len(l0)]
		var s00, s01, s02, s03, s10, s11, s12, s13 float64
		for p, a0 := range l0 {
			a1 := l1[p]
			b0, b1, b2, b3 := u0[p], u1[p], u2[p], u3[p]
			s00 += a0 * b0
			s01 += a0 * b1
			s02 += a0 * b2
			s03 += a0 * b3
			s10 += a1 * b0
			s11 += a1 * b1
			s12 += a1 * b2
			s13 += a1 * b3
		}
		c0[j] -= s00
		c0[j+1] -= s01
		c0[j+2] -= s02
		c0[j+3] -= s03
		c1[j] -= s10
		c1[j+1] -= s11
		c1[j+2] -= s12
		c1[j+3] -= s13
	}
	for ; j < len(c0); j++ {
		u := pack[j*kb : (j+1)*kb]
		c0[j] -= dot(l0, u)
		c1[j] -= dot(l1, u)
	}
}
