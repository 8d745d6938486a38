package stats

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lmExpected is what testdata/lm/make_expected.R wrote.
type lmExpected struct {
	RVersion string   `json:"r_version"`
	Cases    []lmCase `json:"cases"`
}

type lmCase struct {
	Data         string                      `json:"data"`
	Responses    []string                    `json:"responses"`
	Model        string                      `json:"model"`
	N            int                         `json:"n"`
	ResidualDF   float64                     `json:"residual_df"`
	Manova       map[string][]manovaExpected `json:"manova"`
	Anova        map[string][]anovaExpected  `json:"anova"`
	Coefficients map[string][]coefExpected   `json:"coefficients"`
}

type manovaExpected struct {
	Term                               string
	DF, Stat, ApproxF, NumDF, DenDF, P *float64
}

func (m *manovaExpected) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Term = raw["term"].(string)
	m.DF, m.Stat, m.ApproxF, m.NumDF, m.DenDF, m.P = num(raw["df"]), num(raw["stat"]), num(raw["approx_F"]), num(raw["num_df"]), num(raw["den_df"]), num(raw["p"])
	return nil
}

type anovaExpected struct {
	Term                    string
	DF, SumSq, MeanSq, F, P *float64
}

func (a *anovaExpected) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	a.Term = raw["term"].(string)
	a.DF, a.SumSq, a.MeanSq, a.F, a.P = num(raw["df"]), num(raw["sum_sq"]), num(raw["mean_sq"]), num(raw["F"]), num(raw["p"])
	return nil
}

type coefExpected struct {
	Name                     string
	Estimate, StdError, T, P *float64
}

func (c *coefExpected) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	c.Name = raw["name"].(string)
	c.Estimate, c.StdError, c.T, c.P = num(raw["estimate"]), num(raw["std_error"]), num(raw["t"]), num(raw["p"])
	return nil
}

// num reads a JSON number; null (R's NA) and absent are nil.
func num(v any) *float64 {
	f, ok := v.(float64)
	if !ok {
		return nil
	}
	return &f
}

// lmTolerance is the relative error allowed against R. The statistics pass
// through a QR factorization and an eigenproblem, computed differently here
// and in R (on cells rather than rows; Jacobi rather than LAPACK).
const lmTolerance = 1e-9

func TestLinearModelsAgainstR(t *testing.T) {
	var want lmExpected
	readRExpected(t, "testdata/lm/expected.json", "Rscript testdata/lm/make_expected.R", &want)
	worst := map[string]float64{}
	check := func(t *testing.T, what string, got float64, want *float64) {
		t.Helper()
		if want == nil {
			if !math.IsNaN(got) {
				t.Errorf("%s = %v, R says NA", what, got)
			}
			return
		}
		rel := relativeError(got, *want)
		words := strings.Fields(what)
		kind := words[0] + " " + words[len(words)-1] // e.g. "Pillai p", "coef estimate"
		worst[kind] = math.Max(worst[kind], rel)
		if !(rel <= lmTolerance) {
			t.Errorf("%s = %.17g, R says %.17g (relative error %.3g)", what, got, *want, rel)
		}
	}
	for _, c := range want.Cases {
		t.Run(c.Data+"/"+c.Model+"/"+fmt.Sprint(c.Responses), func(t *testing.T) {
			cells := loadCells(t, filepath.Join("testdata", "lm", c.Data), c.Model, c.Responses)
			terms, err := ParseFormula(c.Model)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Fit(cells, terms)
			if err != nil {
				t.Fatal(err)
			}
			if m.N != float64(c.N) || m.ResidualDF != c.ResidualDF {
				t.Errorf("n %v, residual df %v; R: %d, %v", m.N, m.ResidualDF, c.N, c.ResidualDF)
			}
			for test, rows := range c.Manova {
				got, err := m.Manova(test)
				if err != nil {
					t.Fatal(err)
				}
				matchRows(t, check, test, got, rows, func(g ManovaRow, w manovaExpected) (string, string, []rowNumber) {
					return g.Term, w.Term, []rowNumber{{"df", g.DF, w.DF}, {"stat", g.Stat, w.Stat}, {"approx F", g.ApproxF, w.ApproxF},
						{"num df", g.NumDF, w.NumDF}, {"den df", g.DenDF, w.DenDF}, {"p", g.P, w.P}}
				})
			}
			for r, resp := range c.Responses {
				matchRows(t, check, "anova "+resp, m.Anova(r), c.Anova[resp], func(g AnovaRow, w anovaExpected) (string, string, []rowNumber) {
					return g.Term, w.Term, []rowNumber{{"df", g.DF, w.DF}, {"sum sq", g.SumSq, w.SumSq}, {"mean sq", g.MeanSq, w.MeanSq},
						{"F", g.F, w.F}, {"p", g.P, w.P}}
				})
				matchRows(t, check, "coef "+resp, m.Coefficients(r), c.Coefficients[resp], func(g Coefficient, w coefExpected) (string, string, []rowNumber) {
					if w.Estimate == nil {
						return g.Name, w.Name, []rowNumber{{"estimate", g.Estimate, w.Estimate}}
					}
					return g.Name, w.Name, []rowNumber{{"estimate", g.Estimate, w.Estimate}, {"std error", g.StdError, w.StdError},
						{"t", g.T, w.T}, {"p", g.P, w.P}}
				})
			}
		})
	}
	t.Logf("checked %d models against %s; worst relative errors: %v", len(want.Cases), want.RVersion, worst)
}

// rowNumber is one number of a table's row: its name, the model's value
// and R's (nil for NA).
type rowNumber struct {
	name string
	got  float64
	want *float64
}

// matchRows compares one of the model's tables with R's: it fails the test
// unless got has as many rows as want, reports each row whose term (or
// coefficient name) is not R's, and checks each number that row gives,
// named by the table, R's name for the row and the number's name.
func matchRows[G, W any](t *testing.T, check func(t *testing.T, what string, got float64, want *float64), table string, got []G, want []W,
	row func(G, W) (gotName, wantName string, numbers []rowNumber)) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, R has %d", table, len(got), len(want))
	}
	for i, w := range want {
		gotName, wantName, numbers := row(got[i], w)
		if gotName != wantName {
			t.Errorf("%s row %d is %s, R's %s", table, i, gotName, wantName)
		}
		for _, n := range numbers {
			check(t, table+" "+wantName+" "+n.name, n.got, n.want)
		}
	}
}

// loadCells reads a CSV as R's read.csv(stringsAsFactors = TRUE) would: the
// model's variables are factors with sorted levels.
func loadCells(t *testing.T, path, model string, responses []string) *Cells {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := recs[0]
	col := func(name string) int {
		i := slices.Index(header, name)
		if i < 0 {
			t.Fatalf("%s has no column %s", path, name)
		}
		return i
	}
	terms, err := ParseFormula(model)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, term := range terms {
		for _, v := range term {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
	}
	factors := make([]Factor, len(names))
	for i, name := range names {
		c := col(name)
		var levels []string
		for _, rec := range recs[1:] {
			if !slices.Contains(levels, rec[c]) {
				levels = append(levels, rec[c])
			}
		}
		slices.Sort(levels)
		factors[i] = Factor{Name: name, Levels: levels}
	}
	cells := NewCells(factors, responses)
	for _, rec := range recs[1:] {
		codes := make([]int, len(factors))
		for i, fct := range factors {
			codes[i] = slices.Index(fct.Levels, rec[col(fct.Name)])
		}
		y := make([]float64, len(responses))
		for r, name := range responses {
			if y[r], err = strconv.ParseFloat(rec[col(name)], 64); err != nil {
				t.Fatal(err)
			}
		}
		if err := cells.Add(codes, y); err != nil {
			t.Fatal(err)
		}
	}
	return cells
}
