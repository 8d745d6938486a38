package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"
)

// expectedFile holds values computed by R; testdata/make_expected.R writes it.
type expectedFile struct {
	RVersion string               `json:"r_version"`
	Samples  map[string][]float64 `json:"samples"`
	Cases    []expectedCase       `json:"cases"`
}

// expectedCase is one value R computed: want = fn(args, samples).
type expectedCase struct {
	Fn      string    `json:"fn"`
	Args    []float64 `json:"args"`
	Samples []string  `json:"samples"`
	Want    float64   `json:"want"`
}

// expectedRelTolerance is the relative error allowed against R.
const expectedRelTolerance = 1e-9

// functionsUnderTest maps a case's fn to the Go computation it checks.
var functionsUnderTest = map[string]func(args []float64, s [][]float64) float64{
	"mean":      func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Mean },
	"sd":        func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Std },
	"min":       func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Min },
	"q1":        func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Q1 },
	"median":    func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Median },
	"q3":        func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Q3 },
	"max":       func(_ []float64, s [][]float64) float64 { return Describe(s[0]).Max },
	"cv":        func(_ []float64, s [][]float64) float64 { return Describe(s[0]).CV },
	"quantile7": func(a []float64, s [][]float64) float64 { return Quantile(sortedCopy(s[0]), a[0]) },

	"pt":       func(a []float64, _ [][]float64) float64 { return StudentTCDF(a[0], a[1]) },
	"qt":       func(a []float64, _ [][]float64) float64 { return StudentTQuantile(a[0], a[1]) },
	"pnorm":    func(a []float64, _ [][]float64) float64 { return NormalCDF(a[0]) },
	"qnorm":    func(a []float64, _ [][]float64) float64 { return NormalQuantile(a[0]) },
	"pf":       func(a []float64, _ [][]float64) float64 { return FCDF(a[0], a[1], a[2]) },
	"pf.upper": func(a []float64, _ [][]float64) float64 { return FSurvival(a[0], a[1], a[2]) },

	"welch.t":    func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).T },
	"welch.df":   func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).DF },
	"welch.p":    func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).P },
	"welch.diff": func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).MeanDiff },
	"welch.lo":   func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).DiffLo },
	"welch.hi":   func(_ []float64, s [][]float64) float64 { return Welch(s[0], s[1]).DiffHi },

	"overhead.pct": func(a []float64, s [][]float64) float64 { return Overhead(s[0], s[1], a[0]).Pct },
	"overhead.lo":  func(a []float64, s [][]float64) float64 { return Overhead(s[0], s[1], a[0]).LoPct },
	"overhead.hi":  func(a []float64, s [][]float64) float64 { return Overhead(s[0], s[1], a[0]).HiPct },
	"overhead.df":  func(a []float64, s [][]float64) float64 { return Overhead(s[0], s[1], a[0]).DF },
	"overhead.p":   func(a []float64, s [][]float64) float64 { return Overhead(s[0], s[1], a[0]).PValue },
	"overhead.bounded": func(a []float64, s [][]float64) float64 {
		if math.IsNaN(Overhead(s[0], s[1], a[0]).LoPct) {
			return 0
		}
		return 1
	},
}

// readRExpected decodes into v the values R computed, the JSON file at
// path; the test stops if the file cannot be read, saying the command
// that regenerates it, or cannot be decoded.
func readRExpected(t *testing.T, path, regenerate string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the values R computed: %v (regenerate with: %s)", err, regenerate)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
}

// TestAgainstR compares every function with the values R computed.
func TestAgainstR(t *testing.T) {
	var expected expectedFile
	readRExpected(t, "testdata/expected.json", "Rscript testdata/make_expected.R > testdata/expected.json", &expected)
	worst := map[string]float64{}
	for _, c := range expected.Cases {
		name := fmt.Sprintf("%s%v%v", c.Fn, c.Args, c.Samples)
		t.Run(name, func(t *testing.T) {
			compute, ok := functionsUnderTest[c.Fn]
			if !ok {
				t.Fatalf("no Go function for R case %q", c.Fn)
			}
			samples := make([][]float64, len(c.Samples))
			for i, s := range c.Samples {
				if samples[i], ok = expected.Samples[s]; !ok {
					t.Fatalf("sample %q missing from testdata/expected.json", s)
				}
			}
			got := compute(c.Args, samples)
			rel := relativeError(got, c.Want)
			worst[c.Fn] = math.Max(worst[c.Fn], rel)
			if !(rel <= expectedRelTolerance) {
				t.Errorf("got %.17g, R says %.17g (relative error %.3g)", got, c.Want, rel)
			}
		})
	}
	t.Logf("checked %d values against %s; worst relative error by function: %v",
		len(expected.Cases), expected.RVersion, worst)
}

// relativeError returns |got-want|/|want|, or |got| when want is 0.
func relativeError(got, want float64) float64 {
	if got == want {
		return 0
	}
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}
