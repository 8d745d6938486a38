package stats

import (
	"fmt"
	"os"
	"testing"
)

func TestScratchScan(t *testing.T) {
	f, _ := os.Create("/tmp/scan.txt")
	defer f.Close()
	for _, df := range []float64{3, 30, 300, 3e3, 3e4, 1e5, 1e6, 1e7, 1e8} {
		for _, x := range []float64{-0.05, -0.3, -0.7, -1, -1.3, -1.7, -2, -2.5, -3, -4, -6, -10, -20} {
			fmt.Fprintf(f, "t %.17g %.17g %.17g\n", x, df, StudentTCDF(x, df))
		}
	}
	for _, d := range [][2]float64{{1, 1e7}, {3, 1e6}, {10, 1e5}, {100, 1e4}, {1000, 1000}, {2, 3e4}, {1e7, 1}, {1e5, 10}} {
		for _, x := range []float64{0.2, 0.5, 0.9, 1, 1.1, 1.5, 2, 3, 5, 10} {
			fmt.Fprintf(f, "f %.17g %.17g %.17g %.17g %.17g\n", x, d[0], d[1], FCDF(x, d[0], d[1]), FSurvival(x, d[0], d[1]))
		}
	}
}
