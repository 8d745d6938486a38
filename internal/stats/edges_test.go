package stats

import (
	"math"
	"strings"
	"testing"
)

// edgesExpected is what testdata/edges/make_expected.R wrote.
type edgesExpected struct {
	RVersion  string `json:"r_version"`
	Collinear []struct {
		Name    string   `json:"name"`
		G       []string `json:"g"`
		Y1      []float64
		Y2      []float64
		Error   string   `json:"error"`
		Pillai  *float64 `json:"pillai"`
		ApproxF *float64 `json:"approx_f"`
	} `json:"collinear"`
	Flat struct {
		G           []string  `json:"g"`
		Y1          []float64 `json:"y1"`
		Flat        []float64 `json:"flat"`
		AovF        float64   `json:"aov_f"`
		ManovaError string    `json:"manova_error"`
		TTestError  string    `json:"t_test_error"`
	} `json:"flat"`
}

func readEdges(t *testing.T) edgesExpected {
	t.Helper()
	var e edgesExpected
	readRExpected(t, "testdata/edges/expected.json", "Rscript testdata/edges/make_expected.R", &e)
	return e
}

func twoGroupModel(t *testing.T, g []string, names []string, ys ...[]float64) *LinearModel {
	t.Helper()
	c := NewCells([]Factor{{Name: "g", Levels: []string{"a", "b"}}}, names)
	for i := range g {
		code := 0
		if g[i] == "b" {
			code = 1
		}
		row := make([]float64, len(ys))
		for r := range ys {
			row[r] = ys[r][i]
		}
		if err := c.Add([]int{code}, row); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Fit(c, []Term{{"g"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestManovaRankCheckIsR's: responses from independent to collinear, with
// R's verdict on each (summary.manova's qr(D E D, tol = 1e-7)).
func TestManovaRankCheckIsRs(t *testing.T) {
	e := readEdges(t)
	for _, c := range e.Collinear {
		t.Run(c.Name, func(t *testing.T) {
			m := twoGroupModel(t, c.G, []string{"y1", "y2"}, c.Y1, c.Y2)
			rows, err := m.Manova(Pillai)
			switch {
			case c.Error != "":
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("R: %q; here: %v", c.Error, err)
				}
			case err != nil:
				t.Fatalf("R computes Pillai = %v; here: %v", *c.Pillai, err)
			case relativeError(rows[0].Stat, *c.Pillai) > 1e-6 || relativeError(rows[0].ApproxF, *c.ApproxF) > 1e-6:
				t.Fatalf("Pillai %v, F %v; R: %v, %v", rows[0].Stat, rows[0].ApproxF, *c.Pillai, *c.ApproxF)
			}
		})
	}
}

// TestNoResidualVarianceGetsNoTest: a response constant within each group
// (R: F = 7e28 from rounding, manova refuses it, t.test stops) gets no F, no
// p and no stars here, and the multivariate test is refused as R does.
func TestNoResidualVarianceGetsNoTest(t *testing.T) {
	e := readEdges(t).Flat
	m := twoGroupModel(t, e.G, []string{"y1", "flat"}, e.Y1, e.Flat)
	if got := m.NoResidualVariance(); len(got) != 1 || got[0] != "flat" {
		t.Errorf("NoResidualVariance = %v, want [flat]", got)
	}
	for _, row := range m.Anova(1) {
		if row.Term != "Residuals" && (!math.IsNaN(row.F) || !math.IsNaN(row.P)) {
			t.Errorf("%s: F = %v, p = %v; want NaN (R prints %g, from rounding)", row.Term, row.F, row.P, e.AovF)
		}
	}
	if row := m.Anova(0)[0]; math.IsNaN(row.F) || math.IsNaN(row.P) {
		t.Errorf("the varying response lost its F: %+v", row)
	}
	for _, co := range m.Coefficients(1) {
		if !math.IsNaN(co.P) || !math.IsNaN(co.T) {
			t.Errorf("coefficient %s: t = %v, p = %v; want NaN", co.Name, co.T, co.P)
		}
	}
	if _, err := m.Manova(Wilks); err == nil || !strings.Contains(err.Error(), e.ManovaError) || !strings.Contains(err.Error(), "[flat]") {
		t.Errorf("R: %q; here: %v", e.ManovaError, err)
	}
	var a, b []float64
	for i, g := range e.G {
		if g == "a" {
			a = append(a, e.Flat[i])
		} else {
			b = append(b, e.Flat[i])
		}
	}
	w := Welch(a, b)
	if !math.IsNaN(w.P) || !strings.Contains(w.Reason, "constant") {
		t.Errorf("Welch of two constant samples: p = %v (%s); R: %s", w.P, w.Reason, e.TTestError)
	}
	o := Overhead(a, b, 0.95)
	if o.Significant || !math.IsNaN(o.PValue) || !strings.Contains(o.Reason, "not marked significant") {
		t.Errorf("two constant samples that differ: significant %v, p %v, %q", o.Significant, o.PValue, o.Reason)
	}
}
