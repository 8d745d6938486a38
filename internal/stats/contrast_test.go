package stats

import (
	"math"
	"testing"
)

// The expected values are R's, from the same formulas written out:
//
//	A <- mean(a); B <- mean(b); M <- mean(base); est <- (A-B)/M*100
//	v <- c(var(a)/4/M^2, var(b)/3/M^2, ((A-B)/M^2)^2*var(base)/5)
//	df <- sum(v)^2/sum(v^2/c(3,2,4)); h <- qt(0.975, df)*sqrt(sum(v))*100
func TestDifferenceOfMeansMatchesR(t *testing.T) {
	a := []float64{31.2, 33.5, 30.8, 32.9}
	b := []float64{22.1, 21.7, 23.0}
	base := []float64{20.5, 21.1, 20.2, 20.9, 21.4}
	got := DifferenceOfMeans(a, b, base, 0.95)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"pct", got.Pct, 47.230227345501}, {"lo", got.LoPct, 37.668765735458}, {"hi", got.HiPct, 56.791688955544}, {"df", got.DF, 4.775313279862}} {
		if math.Abs(c.got-c.want) > 1e-8*math.Abs(c.want) {
			t.Errorf("%s = %.12f, want %.12f (R)", c.name, c.got, c.want)
		}
	}
	if !got.Significant {
		t.Error("an interval of 37.7..56.8 excludes 0 but is not marked significant")
	}
	// Swapping a and b mirrors the estimate and the interval.
	sw := DifferenceOfMeans(b, a, base, 0.95)
	if math.Abs(sw.Pct+got.Pct) > 1e-9 || math.Abs(sw.LoPct+got.HiPct) > 1e-9 {
		t.Errorf("swapped: %+v, want the mirror of %+v", sw, got)
	}
}

func TestDifferenceOfMeansWithoutSpread(t *testing.T) {
	r := DifferenceOfMeans([]float64{2}, []float64{1, 1.1}, []float64{1, 1}, 0.95)
	if math.Abs(r.Pct-95) > 1e-9 || !math.IsNaN(r.LoPct) || r.Significant {
		t.Errorf("one value in a: %+v, want pct 95 and no interval", r)
	}
	r = DifferenceOfMeans([]float64{1, 2}, []float64{1, 2}, []float64{0, 0}, 0.95)
	if !math.IsNaN(r.Pct) {
		t.Errorf("zero base: %+v, want NaN", r)
	}
	r = DifferenceOfMeans([]float64{3, 3}, []float64{1, 1}, []float64{2, 2}, 0.95)
	if r.Pct != 100 || r.LoPct != 100 || r.HiPct != 100 || r.Significant {
		t.Errorf("constant samples: %+v, want the point 100, not marked significant", r)
	}
}
