package cpu

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestLUSolvesKnownSystem(t *testing.T) {
	// Sizes around the block width exercise the panel edges and the 2x4 kernel's remainders.
	for _, n := range []int{2, 3, 5, 31, 32, 33, 65, 100, 130} {
		a, b := newMatrix(n), make([]float64, n)
		fillRandom(a, b)
		orig := newMatrix(n)
		copy(orig.a, a.a)
		x := append([]float64(nil), b...)
		if _, err := solve(a, make([]int, n), x); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		res := normalizedResidual(orig, x, b)
		if err := checkResidual(res); err != nil || res > 1 {
			t.Errorf("n=%d: residual %g (%v)", n, res, err)
		}
		for i, v := range x {
			if math.Abs(v-1) > 1e-9 {
				t.Fatalf("n=%d: x[%d] = %v, want 1", n, i, v)
			}
		}
	}
}

func TestLUPivots(t *testing.T) {
	// A zero in the corner needs a row swap: [[0 1] [2 3]] x = [1 5] has x = [1 1].
	a := matrix{n: 2, a: []float64{0, 1, 2, 3}}
	x := []float64{1, 5}
	if _, err := solve(a, make([]int, 2), x); err != nil {
		t.Fatal(err)
	}
	if x[0] != 1 || x[1] != 1 {
		t.Errorf("x = %v, want [1 1]", x)
	}
}

func TestLUSingular(t *testing.T) {
	tests := []struct {
		name string
		n    int
		fill func(i, j int) float64
	}{
		{name: "zero matrix", n: 4, fill: func(i, j int) float64 { return 0 }},
		{name: "equal rows", n: 40, fill: func(i, j int) float64 { return float64(j + 1) }},
		{name: "zero column", n: 70, fill: func(i, j int) float64 {
			if j == 50 {
				return 0
			}
			return float64((i*7+j*13)%11) - 5
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newMatrix(tt.n)
			for i := 0; i < tt.n; i++ {
				for j := 0; j < tt.n; j++ {
					a.a[i*tt.n+j] = tt.fill(i, j)
				}
			}
			_, err := solve(a, make([]int, tt.n), make([]float64, tt.n))
			if !errors.Is(err, errSingular) {
				t.Errorf("err = %v, want errSingular", err)
			}
		})
	}
}

func TestResidualCheckFailsWrongSolution(t *testing.T) {
	n := 50
	a, b := newMatrix(n), make([]float64, n)
	fillRandom(a, b)
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	if err := checkResidual(normalizedResidual(a, x, b)); err != nil {
		t.Fatalf("exact solution rejected: %v", err)
	}
	x[7] += 1e-9 // far more than rounding
	if err := checkResidual(normalizedResidual(a, x, b)); err == nil {
		t.Error("perturbed solution accepted")
	}
	x[7] = math.NaN()
	if err := checkResidual(normalizedResidual(a, x, b)); err == nil {
		t.Error("NaN solution accepted")
	}
}

func TestLinpackParams(t *testing.T) {
	workloadtest.CheckParams(t, Linpack, []workloadtest.ParamCase{
		{Name: "defaults"},
		{Name: "small", Params: workload.Params{"n": 10, "repeats": 1}},
		{Name: "n too small", Params: workload.Params{"n": 1}, WantErr: "parameter n"},
		{Name: "n too large for 32-bit", Params: workload.Params{"n": 50000}, WantErr: "parameter n"},
		{Name: "n fractional", Params: workload.Params{"n": 10.5}, WantErr: "n"},
		{Name: "no repeats", Params: workload.Params{"repeats": 0}, WantErr: "repeats"},
	})
}

func TestLinpackRun(t *testing.T) {
	p, _ := workload.Check(Linpack.Info(), workload.Params{"n": 64, "repeats": 2})
	r := workloadtest.Run(t, context.Background(), Linpack, p, workload.Env{})
	for _, m := range []string{"mflops", "time_s", "residual"} {
		if v := r.Samples[m]; len(v) != 1 || !(v[0] > 0) {
			t.Errorf("%s: %v", m, v)
		}
	}
}
