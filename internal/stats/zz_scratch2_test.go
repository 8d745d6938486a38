package stats

import (
	"fmt"
	"os"
	"testing"
)

func TestScratchScan(t *testing.T) {
	f, _ := os.Create("/tmp/scan2.txt")
	defer f.Close()
	for _, a := range []float64{300, 1e3, 3e3, 1e4, 1e5, 1e6, 1e8} {
		for _, b := range []float64{0.5, 3, 50, 100, 300, 1000, 1e4, 1e5, 1e6} {
			if b > a {
				continue
			}
			for _, k := range []float64{0.5, 0.8, 0.95, 1.01, 1.05, 1.2, 1.5, 2, 3, 5, 10, 30} {
				y := k * (b + 1) / (a + b + 2)
				x := 1 - y
				if y > 0.9 {
					continue
				}
				v := regIncBeta(a, b, x, y)
				fmt.Fprintf(f, "%.17g %.17g %.17g %.17g %.17g\n", a, b, y, v, v)
			}
		}
	}
}
