package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/errtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

func TestParseFormula(t *testing.T) {
	tests := []struct {
		formula string
		want    string // terms joined by " + "
		wantErr string
	}{
		{formula: "deployment + kernel + load + deployment:kernel", want: "deployment + kernel + load + deployment:kernel"},
		{formula: "y ~ a*b", want: "a + b + a:b"},
		{formula: "cbind(x, y) ~ a", want: "a"},
		{formula: "~ a*b + c", want: "a + b + c + a:b"},
		{formula: "a*b*c", want: "a + b + c + a:b + a:c + b:c + a:b:c"},
		{formula: "(a+b+c)^2", want: "a + b + c + a:b + a:c + b:c"},
		{formula: "a:b + a", want: "a + a:b"},
		{formula: "b:a + a + b", want: "a + b + b:a"}, // variables in order of first appearance, as R
		{formula: "a + a + a:a", want: "a"},
		{formula: "`load type` + env", want: "load type + env"},
		{formula: "a +", wantErr: "missing at the end"},
		{formula: "a + 1", wantErr: "number"},
		{formula: "(a + b", wantErr: "missing )"},
		{formula: "a^x", wantErr: "whole number"},
		{formula: "a - b", wantErr: "unexpected"},
		{formula: "", wantErr: "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.formula, func(t *testing.T) {
			terms, err := ParseFormula(tt.formula)
			if errtest.Want(t, err, tt.wantErr) {
				return
			}
			var got []string
			for _, term := range terms {
				got = append(got, term.String())
			}
			if strings.Join(got, " + ") != tt.want {
				t.Errorf("terms %q, want %q", strings.Join(got, " + "), tt.want)
			}
		})
	}
}

func TestDesignColumns(t *testing.T) {
	a := Factor{Name: "a", Levels: []string{"x", "y", "z"}}
	b := Factor{Name: "b", Levels: []string{"p", "q"}}
	tests := []struct {
		formula string
		want    string
	}{
		{"a + b", "(Intercept) ay az bq"},
		{"a*b", "(Intercept) ay az bq ay:bq az:bq"},
		{"a + a:b", "(Intercept) ay az ax:bq ay:bq az:bq"}, // as model.matrix(~ a + a:b)
		{"b:a", "(Intercept) bp:ax bq:ax bp:ay bq:ay bp:az bq:az"},
	}
	for _, tt := range tests {
		terms, err := ParseFormula(tt.formula)
		if err != nil {
			t.Fatal(err)
		}
		d, err := NewDesign([]Factor{a, b}, terms)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range d.Columns {
			names = append(names, c.Name)
		}
		if got := strings.Join(names, " "); got != tt.want {
			t.Errorf("%s: columns %q, want %q", tt.formula, got, tt.want)
		}
	}
	row := make([]float64, 6)
	terms, _ := ParseFormula("a*b")
	d, _ := NewDesign([]Factor{a, b}, terms)
	d.Row([]int{2, 1}, row)
	if fmt.Sprint(row) != "[1 0 1 1 0 1]" {
		t.Errorf("row of (z, q): %v", row)
	}
	if _, err := NewDesign([]Factor{a, {Name: "c", Levels: []string{"only"}}}, []Term{{"c"}}); err == nil || !strings.Contains(err.Error(), "one level") {
		t.Errorf("a one-level factor: %v", err)
	}
	if _, err := NewDesign([]Factor{a}, []Term{{"nope"}}); err == nil || !strings.Contains(err.Error(), "factors: a") {
		t.Errorf("an unknown factor: %v", err)
	}
}

// TestCellsBatchesEqualRows checks that adding observations in batches gives
// the statistics of adding them one by one, also around a large offset.
func TestCellsBatchesEqualRows(t *testing.T) {
	f := []Factor{{Name: "g", Levels: []string{"a", "b"}}}
	one := NewCells(f, []string{"x", "y"})
	batched := NewCells(f, []string{"x", "y"})
	var xs, ys []float64
	for i := 0; i < 1000; i++ {
		x := 1e9 + float64(i%7) + 0.25*float64(i%3)
		y := -5 + float64(i%11)*0.5
		if i == 500 {
			x = math.NaN() // left out
		}
		if err := one.Add([]int{1}, []float64{x, y}); err != nil {
			t.Fatal(err)
		}
		xs, ys = append(xs, x), append(ys, y)
		if len(xs) == 300 || i == 999 {
			if err := batched.AddColumns([]int{1}, [][]float64{xs, ys}); err != nil {
				t.Fatal(err)
			}
			xs, ys = nil, nil
		}
	}
	a, b := one.List()[0], batched.List()[0]
	if a.N != 999 || b.N != 999 || one.Skipped() != 1 || batched.Skipped() != 1 {
		t.Fatalf("counts %v %v, skipped %d %d", a.N, b.N, one.Skipped(), batched.Skipped())
	}
	// Exact values (rational arithmetic): mean of y, SSCP of x and of x with y.
	exact := []struct {
		name       string
		rows, cols float64
		want       float64
	}{
		{"mean y", a.Mean[1], b.Mean[1], -2.5025025025025025},
		{"ss x", a.Comoment[0], b.Comoment[0], 4036.112737737738},
		{"sp xy", a.Comoment[1], b.Comoment[1], -7.258758758758759},
	}
	for _, e := range exact {
		// Deviations are from the cell's first values, so the offset of 1e9
		// costs no digits, row by row or in batches.
		if relativeError(e.rows, e.want) > 1e-12 || relativeError(e.cols, e.want) > 1e-12 {
			t.Errorf("%s: row by row %.17g, batched %.17g, exact %.17g", e.name, e.rows, e.cols, e.want)
		}
	}
}

func TestManovaRefusesDependentResponses(t *testing.T) {
	f := []Factor{{Name: "g", Levels: []string{"a", "b"}}}
	c := NewCells(f, []string{"x", "twice_x"})
	for i := 0; i < 20; i++ {
		x := float64(i * i % 13)
		c.Add([]int{i % 2}, []float64{x, 2 * x})
	}
	m, err := Fit(c, []Term{{"g"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Manova(Pillai); err == nil || !strings.Contains(err.Error(), "residuals have rank 1 < 2") {
		t.Errorf("error %v", err)
	}
	if _, err := m.Manova("Lawley"); err == nil {
		t.Error("an unknown test was accepted")
	}
}

func TestFitNeedsResidualDF(t *testing.T) {
	f := []Factor{{Name: "g", Levels: []string{"a", "b"}}}
	c := NewCells(f, []string{"x"})
	c.Add([]int{0}, []float64{1})
	c.Add([]int{1}, []float64{2})
	if _, err := Fit(c, []Term{{"g"}}); err != ErrNoResidualDF {
		t.Errorf("error %v", err)
	}
}

func TestCellsRecode(t *testing.T) {
	f := []Factor{{Name: "g", Levels: []string{"native", "docker"}}}
	c := NewCells(f, []string{"x"})
	for i := 0; i < 10; i++ {
		c.Add([]int{i % 2}, []float64{float64(i)})
	}
	r, err := c.Recode([]Factor{{Name: "g", Levels: []string{"docker", "native"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range r.List() {
		want := map[int]float64{1: 4, 0: 5}[cl.Codes[0]] // native (now 1): 0,2,4,6,8
		if cl.Mean[0] != want || cl.N != 5 || cl.Comoment[0] != 40 {
			t.Errorf("cell %v: n %v mean %v comoment %v", cl.Codes, cl.N, cl.Mean, cl.Comoment)
		}
	}
	if _, err := c.Recode([]Factor{{Name: "g", Levels: []string{"docker", "podman"}}}); err == nil {
		t.Error("recoded to levels that do not match")
	}
}

// TestParseFormulaIsBounded: issue 15 item 8, (a+b+...)^30 never finished.
func TestParseFormulaIsBounded(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := ParseFormula("(a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z)^30")
		done <- err
	}()
	if err := testenv.Receive(t, done, 10*time.Second, "the formula is still expanding"); err == nil || !strings.Contains(err.Error(), "more than 1024 terms") {
		t.Fatalf("err = %v, want the bound named", err)
	}
	if terms, err := ParseFormula("(a+b+c)^3"); err != nil || len(terms) != 7 {
		t.Fatalf("(a+b+c)^3 = %v, %v; want its 7 terms", terms, err)
	}
	// A huge power of a model that stops growing ends at once (the fuzzer
	// found (a)^999999999 spinning for a billion rounds); a sum of more
	// than the bound is refused like a product.
	start := time.Now()
	if terms, err := ParseFormula("(a+b)^999999999"); err != nil || len(terms) != 3 {
		t.Fatalf("(a+b)^999999999 = %v, %v; want a, b, a:b", terms, err)
	}
	// The bound catches the billion rounds (minutes), not speed: 30 s
	// for a busy machine.
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("(a+b)^999999999 took %v", d)
	}
	var long []string
	for i := range MaxFormulaTerms + 1 {
		long = append(long, fmt.Sprintf("v%d", i))
	}
	if _, err := ParseFormula(strings.Join(long, "+")); err == nil || !strings.Contains(err.Error(), "more than 1024 terms") {
		t.Fatalf("a sum of %d terms: err = %v, want the bound named", len(long), err)
	}
}
