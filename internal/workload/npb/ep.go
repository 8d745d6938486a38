package npb

import (
	"context"
	"fmt"
	"math"
	"time"
)

// EP: Gaussian pairs by the Marsaglia polar method from 2^(M+1) uniform
// numbers, tallied in square annuli; verified by the sums of the deviates.

// epClass is log2 of the number of pairs (NPB's M).
var epClass = map[string]int{"S": 24, "W": 25, "A": 28}

// epVerify holds NPB's official sums (sx, sy) per class.
var epVerify = map[string][2]float64{
	"S": {-3.247834652034740e+3, -6.958407078382297e+3},
	"W": {-2.863319731645753e+3, -6.320053679109499e+3},
	"A": {-4.295875165629892e+3, -1.580732573678431e+4},
}

const (
	epMK      = 16 // log2 of a batch of pairs
	epNK      = 1 << epMK
	epNQ      = 10
	epEpsilon = 1e-8
)

// epMemory is the bytes a class of EP holds at the peak.
func epMemory(string) int64 { return 2 * epNK * 8 * 8 }

// epTally is one worker's sums and annulus counts.
type epTally struct {
	sx, sy float64
	q      [epNQ]float64
}

func runEP(ctx context.Context, class string, threads int) (result, error) {
	m := epClass[class]
	batches := 1 << (m - epMK)
	start := time.Now()
	// an = A^(2 NK) mod 2^46: the jump from one batch's seed to the next.
	an := powMod46(npbA, 2*epNK)
	tallies := make([]epTally, threads)
	parallelFor(threads, batches, func(w, lo, hi int) {
		x := make([]float64, 2*epNK)
		t := &tallies[w]
		for k := lo; k < hi; k++ {
			if k%64 == 0 && ctx.Err() != nil {
				return // reported below
			}
			g := lcg{x: mulMod46(seedEP, powMod46(an, int64(k)))}
			g.fill(npbA, x)
			for i := 0; i < epNK; i++ {
				x1 := 2*x[2*i] - 1
				x2 := 2*x[2*i+1] - 1
				r := x1*x1 + x2*x2
				if r <= 1 {
					f := math.Sqrt(-2 * math.Log(r) / r)
					t3, t4 := x1*f, x2*f
					t.q[int(math.Max(math.Abs(t3), math.Abs(t4)))]++
					t.sx += t3
					t.sy += t4
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return result{}, err
	}
	var sx, sy float64
	for _, t := range tallies {
		sx += t.sx
		sy += t.sy
	}
	secs := time.Since(start).Seconds()
	v, err := verifyEP(class, sx, sy)
	if err != nil {
		return result{}, err
	}
	return result{seconds: secs, mops: math.Pow(2, float64(m+1)) / secs / 1e6,
		size: fmt.Sprintf("2^%d pairs", m), verify: v}, nil
}

// verifyEP compares the sums with NPB's official values.
func verifyEP(class string, sx, sy float64) (string, error) {
	want := epVerify[class]
	ex, err := checkOfficial("sum of x deviates", sx, want[0], epEpsilon)
	if err != nil {
		return "", err
	}
	ey, err := checkOfficial("sum of y deviates", sy, want[1], epEpsilon)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("sums %.15e %.15e, relative errors %.1e %.1e <= %.0e", sx, sy, ex, ey, epEpsilon), nil
}
