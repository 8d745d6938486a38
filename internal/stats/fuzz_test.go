package stats

import "testing"

// FuzzParseFormula: any model formula parses or is refused without a panic
// and within the term bound (issue 15: fuzzing). Seed corpus:
// testdata/fuzz/FuzzParseFormula and the cases below.
func FuzzParseFormula(f *testing.F) {
	for _, s := range []string{"a + b + a:b", "y ~ a*b*c", "(a+b+c)^2", "a:(b+c)", "((a)", "a^0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseFormula(s)
		if err == nil && len(terms) > MaxFormulaTerms {
			t.Fatalf("%q gave %d terms, more than %d", s, len(terms), MaxFormulaTerms)
		}
	})
}
