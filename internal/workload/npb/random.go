package npb

// NPB's pseudorandom generator (randlc and vranlc in NPB's randdp.c):
// x_{k+1} = a x_k mod 2^46 with a = 5^13, returning x_{k+1} / 2^46. NPB
// computes it in double precision split into 23-bit halves, which is exact;
// the same residue computed in 64-bit integers is bit for bit the same
// sequence.

const (
	// npbA is 5^13, NPB's multiplier.
	npbA = 1220703125
	// seedIS, seedCG, seedMG and seedFT are the kernels' seeds (314159265),
	// seedEP EP's (271828183).
	seedMain = 314159265
	seedEP   = 271828183

	mod46  = 1<<46 - 1
	r46    = 1.0 / (1 << 46)
	twoP46 = 1 << 46
)

// lcg is one stream of NPB's generator.
type lcg struct{ x uint64 }

// next advances the stream by a and returns the new value in (0, 1): randlc.
func (g *lcg) next(a uint64) float64 {
	g.x = (g.x * a) & mod46
	return float64(g.x) * r46
}

// fill writes len(y) successive values with multiplier a: vranlc.
func (g *lcg) fill(a uint64, y []float64) {
	x := g.x
	for i := range y {
		x = (x * a) & mod46
		y[i] = float64(x) * r46
	}
	g.x = x
}

// mulMod46 is a*b mod 2^46.
func mulMod46(a, b uint64) uint64 { return (a * b) & mod46 }

// powMod46 is a^n mod 2^46 (NPB's ipow46 and MG's power).
func powMod46(a uint64, n int64) uint64 {
	r := uint64(1)
	for n > 0 {
		if n&1 == 1 {
			r = mulMod46(r, a)
		}
		a = mulMod46(a, a)
		n >>= 1
	}
	return r
}
