package npb

import (
	"context"
	"fmt"
	"math"
	"math/cmplx"
	"time"
)

// FT: the time evolution of a 3-D diffusion equation by forward FFT,
// multiplication by exp(-4 alpha pi^2 |k|^2 t) and inverse FFT each step;
// verified by a checksum of 1024 elements after every step.

// ftClass is the grid (nx, ny, nz) and the number of time steps.
type ftClass struct{ nx, ny, nz, niter int }

var ftClasses = map[string]ftClass{
	"S": {64, 64, 64, 6},
	"W": {128, 128, 32, 6},
	"A": {256, 256, 128, 6},
}

// ftChecksums holds NPB's official checksums of steps 1..6 per class.
var ftChecksums = map[string][]complex128{
	"S": {
		complex(5.546087004964e+02, 4.845363331978e+02), complex(5.546385409189e+02, 4.865304269511e+02),
		complex(5.546148406171e+02, 4.883910722336e+02), complex(5.545423607415e+02, 4.901273169046e+02),
		complex(5.544255039624e+02, 4.917475857993e+02), complex(5.542683411902e+02, 4.932597244941e+02),
	},
	"W": {
		complex(5.673612178944e+02, 5.293246849175e+02), complex(5.631436885271e+02, 5.282149986629e+02),
		complex(5.594024089970e+02, 5.270996558037e+02), complex(5.560698047020e+02, 5.260027904925e+02),
		complex(5.530898991250e+02, 5.249400845633e+02), complex(5.504159734538e+02, 5.239212247086e+02),
	},
	"A": {
		complex(5.046735008193e+02, 5.114047905510e+02), complex(5.059412319734e+02, 5.098809666433e+02),
		complex(5.069376896287e+02, 5.098144042213e+02), complex(5.077892868474e+02, 5.101336130759e+02),
		complex(5.085233095391e+02, 5.104914655194e+02), complex(5.091487099959e+02, 5.107917842803e+02),
	},
}

const (
	ftAlpha   = 1e-6
	ftEpsilon = 1e-12
)

// ftMemory is the bytes a class of FT holds at the peak.
func ftMemory(class string) int64 {
	c := ftClasses[class]
	return int64(c.nx*c.ny*c.nz) * (16 + 16 + 8)
}

// fft1 is a radix-2 FFT of one length: x_k = sum_j x_j exp(sign 2 pi i jk / n).
type fft1 struct {
	n     int
	roots []complex128 // exp(2 pi i j / n), j < n/2
	rev   []int
}

func newFFT1(n int) *fft1 {
	f := &fft1{n: n, roots: make([]complex128, n/2), rev: make([]int, n)}
	for j := range f.roots {
		t := 2 * math.Pi * float64(j) / float64(n)
		f.roots[j] = complex(math.Cos(t), math.Sin(t))
	}
	bits := 0
	for 1<<bits < n {
		bits++
	}
	for i := range f.rev {
		r := 0
		for b := 0; b < bits; b++ {
			if i&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		f.rev[i] = r
	}
	return f
}

// transform does the FFT of x in place; sign is +1 (NPB's forward) or -1.
func (f *fft1) transform(x []complex128, sign int) {
	n := f.n
	for i, r := range f.rev {
		if i < r {
			x[i], x[r] = x[r], x[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		half, step := size/2, n/size
		for start := 0; start < n; start += size {
			for k := 0; k < half; k++ {
				w := f.roots[k*step]
				if sign < 0 {
					w = cmplx.Conj(w)
				}
				a, b := x[start+k], w*x[start+k+half]
				x[start+k], x[start+k+half] = a+b, a-b
			}
		}
	}
}

// transformStrided does the FFT in place of the line of u that starts at
// start and steps by stride (a line along y or z of a grid stored x
// fastest), gathering it into buf, f.n long, and scattering it back.
func (f *fft1) transformStrided(u []complex128, start, stride int, buf []complex128, sign int) {
	for j := range buf {
		buf[j] = u[start+j*stride]
	}
	f.transform(buf, sign)
	for j := range buf {
		u[start+j*stride] = buf[j]
	}
}

// ftGrid is the complex field, x fastest: index (k*ny + j)*nx + i.
type ftGrid struct {
	c          ftClass
	threads    int
	fx, fy, fz *fft1
}

// fft3 transforms u in place along x, y and z (forward) or z, y, x.
func (g *ftGrid) fft3(u []complex128, sign int) {
	nx, ny, nz := g.c.nx, g.c.ny, g.c.nz
	alongX := func() {
		parallelFor(g.threads, nz*ny, func(_, lo, hi int) {
			for line := lo; line < hi; line++ {
				g.fx.transform(u[line*nx:(line+1)*nx], sign)
			}
		})
	}
	alongY := func() {
		parallelFor(g.threads, nz, func(_, lo, hi int) {
			buf := make([]complex128, ny)
			for k := lo; k < hi; k++ {
				for i := 0; i < nx; i++ {
					g.fy.transformStrided(u, k*ny*nx+i, nx, buf, sign)
				}
			}
		})
	}
	alongZ := func() {
		parallelFor(g.threads, ny, func(_, lo, hi int) {
			buf := make([]complex128, nz)
			for j := lo; j < hi; j++ {
				for i := 0; i < nx; i++ {
					g.fz.transformStrided(u, j*nx+i, ny*nx, buf, sign)
				}
			}
		})
	}
	if sign > 0 {
		alongX()
		alongY()
		alongZ()
	} else {
		alongZ()
		alongY()
		alongX()
	}
}

// initialConditions fills u with NPB's random numbers, real and imaginary
// parts in turn, each z plane from its own jump-ahead seed.
func (g *ftGrid) initialConditions(u []complex128) {
	nx, ny, nz := g.c.nx, g.c.ny, g.c.nz
	an := powMod46(npbA, int64(2*nx*ny))
	starts := make([]uint64, nz)
	x := uint64(seedMain)
	for k := range starts {
		starts[k] = x
		x = mulMod46(x, an)
	}
	parallelFor(g.threads, nz, func(_, lo, hi int) {
		row := make([]float64, 2*nx)
		for k := lo; k < hi; k++ {
			gen := lcg{x: starts[k]}
			for j := 0; j < ny; j++ {
				gen.fill(npbA, row)
				base := (k*ny + j) * nx
				for i := 0; i < nx; i++ {
					u[base+i] = complex(row[2*i], row[2*i+1])
				}
			}
		}
	})
}

// twiddle is exp(-4 alpha pi^2 (i'^2 + j'^2 + k'^2)) with i' the signed
// frequency of index i.
func (g *ftGrid) twiddle(t []float64) {
	nx, ny, nz := g.c.nx, g.c.ny, g.c.nz
	ap := -4 * ftAlpha * math.Pi * math.Pi
	parallelFor(g.threads, nz, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			kk := (k+nz/2)%nz - nz/2
			for j := 0; j < ny; j++ {
				jj := (j+ny/2)%ny - ny/2
				kj2 := jj*jj + kk*kk
				for i := 0; i < nx; i++ {
					ii := (i+nx/2)%nx - nx/2
					t[(k*ny+j)*nx+i] = math.Exp(ap * float64(ii*ii+kj2))
				}
			}
		}
	})
}

// checksum is NPB's: the mean-normalized sum of 1024 elements spread over
// the grid.
func (g *ftGrid) checksum(u []complex128) complex128 {
	nx, ny, nz := g.c.nx, g.c.ny, g.c.nz
	var chk complex128
	for j := 1; j <= 1024; j++ {
		q, r, s := j%nx, 3*j%ny, 5*j%nz
		chk += u[(s*ny+r)*nx+q]
	}
	return chk / complex(float64(nx*ny*nz), 0)
}

func runFT(ctx context.Context, class string, threads int) (result, error) {
	c := ftClasses[class]
	n := c.nx * c.ny * c.nz
	g := &ftGrid{c: c, threads: threads, fx: newFFT1(c.nx), fy: newFFT1(c.ny), fz: newFFT1(c.nz)}
	u0, u1, tw := make([]complex128, n), make([]complex128, n), make([]float64, n)
	// NPB runs the set-up once untimed to touch every page, then times all.
	g.twiddle(tw)
	g.initialConditions(u1)
	g.fft3(u1, 1)

	start := time.Now()
	g.twiddle(tw)
	g.initialConditions(u0)
	g.fft3(u0, 1)
	sums := make([]complex128, c.niter)
	for it := 0; it < c.niter; it++ {
		if err := ctx.Err(); err != nil {
			return result{}, err
		}
		parallelFor(threads, n, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				u0[i] *= complex(tw[i], 0)
				u1[i] = u0[i]
			}
		})
		g.fft3(u1, -1)
		sums[it] = g.checksum(u1)
	}
	secs := time.Since(start).Seconds()
	v, err := verifyFT(class, sums)
	if err != nil {
		return result{}, err
	}
	ln := math.Log(float64(n))
	mops := 1e-6 * float64(n) * (14.8157 + 7.19641*ln + (5.23518+7.21113*ln)*float64(c.niter)) / secs
	return result{seconds: secs, mops: mops, size: fmt.Sprintf("%dx%dx%d", c.nx, c.ny, c.nz), verify: v}, nil
}

// verifyFT compares every step's checksum with NPB's official one.
func verifyFT(class string, sums []complex128) (string, error) {
	want := ftChecksums[class]
	if len(sums) != len(want) {
		return "", fmt.Errorf("VERIFICATION FAILED: %d checksums for %d steps", len(sums), len(want))
	}
	worst := 0.0
	for i, s := range sums {
		e := cmplx.Abs(s-want[i]) / cmplx.Abs(want[i])
		if !(e <= ftEpsilon) {
			return "", fmt.Errorf("VERIFICATION FAILED: checksum of step %d is %.12e%+.12ei, NPB's official value is %.12e%+.12ei (relative error %.3e > %.0e)",
				i+1, real(s), imag(s), real(want[i]), imag(want[i]), e, ftEpsilon)
		}
		worst = math.Max(worst, e)
	}
	return fmt.Sprintf("%d checksums, largest relative error %.1e <= %.0e", len(sums), worst, ftEpsilon), nil
}
