package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestConstantResponsePrintsNoNegativeZero: a response that does not vary
// has coefficients of exactly zero, which the table printed as "-0" (and
// "(-0.000)" beside a negative intercept); issue 29 item 9.
func TestConstantResponsePrintsNoNegativeZero(t *testing.T) {
	for _, c := range []string{"5", "-2.5"} {
		t.Run(c, func(t *testing.T) {
			csv := "a,b,y,z\n"
			zs := []string{"1", "2", "3.5", "4", "1.2", "2.1", "3.3", "4.4"}
			levels := [][2]string{{"x", "p"}, {"x", "q"}, {"y", "p"}, {"y", "q"}}
			for i, z := range zs {
				l := levels[i%4]
				csv += fmt.Sprintf("%s,%s,%s,%s\n", l[0], l[1], c, z)
			}
			rows, _, err := ReadCSV(strings.NewReader(csv), CSVOptions{Name: "c.csv", Responses: []string{"y", "z"}, Factors: []string{"a", "b"}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Analyze(context.Background(), rows, "a * b")
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			res.text(&b)
			out := b.String()
			coef := out[strings.Index(out, "Coefficients"):]
			if strings.Contains(coef, "-0 ") || strings.Contains(coef, "(-0.000)") {
				t.Errorf("a negative zero in the coefficients:\n%s", coef)
			}
		})
	}
	if got := num(math.Copysign(0, -1)); got != "0" {
		t.Errorf("num(-0) = %q, want 0", got)
	}
	if got := ratio(math.Copysign(0, -1)); got != "0.000" {
		t.Errorf("ratio(-0) = %q, want 0.000", got)
	}
}
