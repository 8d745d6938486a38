package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// thesisLike is the 2x2x2 dataset whose statistics R computed (package stats'
// testdata).
var thesisLike = filepath.Join("..", "stats", "testdata", "lm", "thesis_like.csv")

func readThesisLike(t *testing.T, refs map[string]string) *Dataset {
	t.Helper()
	f, err := os.Open(thesisLike)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, runs, err := ReadCSV(f, CSVOptions{Name: "thesis_like.csv", Responses: []string{"oh1", "work", "oh2", "sleep"},
		Factors: []string{"deployment", "kernel", "load"}, References: refs})
	if err != nil {
		t.Fatal(err)
	}
	if runs != nil {
		t.Fatal("a per-run dataset without a run column")
	}
	rows.DefaultModel = "deployment + kernel + load + deployment:kernel"
	return rows
}

// TestCSVMatchesR reads the CSV the R script wrote and checks the analysis
// against two of R's numbers (package stats checks them all).
func TestCSVMatchesR(t *testing.T) {
	r, err := Analyze(t.Context(), readThesisLike(t, nil), "")
	if err != nil {
		t.Fatal(err)
	}
	// From testdata/lm/expected.json of package stats.
	pillaiKernel := 0.74249555291671476
	if got := r.Manova["Pillai"][1]; got.Term != "kernel" || math.Abs(got.Stat-pillaiKernel) > 1e-12 {
		t.Errorf("Pillai of kernel: %+v, R: %v", got, pillaiKernel)
	}
	if r.N != 240 || r.ResidualDF != 235 || len(r.Scenarios) != 8 || r.Scenarios[0].N != 30 {
		t.Errorf("n %v, residual df %v, %d scenarios", r.N, r.ResidualDF, len(r.Scenarios))
	}
	// Sorted levels as R: docker is the reference of deployment.
	if name := r.Coefficients["oh1"][1].Name; name != "deploymentnative" {
		t.Errorf("first coefficient %s, want deploymentnative (docker, sorted first, is the reference)", name)
	}
}

func TestCSVReferenceLevels(t *testing.T) {
	r, err := Analyze(t.Context(), readThesisLike(t, map[string]string{"deployment": "native", "kernel": "vanilla", "load": "none"}), "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range r.Coefficients["work"] {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "(Intercept) deploymentdocker kernelrt loadcpu deploymentdocker:kernelrt" {
		t.Errorf("coefficients %s", got)
	}
	// The tests themselves do not depend on the coding of the factors.
	ref, _ := Analyze(t.Context(), readThesisLike(t, nil), "")
	for i := range ref.Manova["Wilks"] {
		if a, b := r.Manova["Wilks"][i].Stat, ref.Manova["Wilks"][i].Stat; math.Abs(a-b) > 1e-12 {
			t.Errorf("Wilks %s: %v with other references, %v", ref.Manova["Wilks"][i].Term, a, b)
		}
	}
}

func TestCSVGolden(t *testing.T) {
	r, err := Analyze(t.Context(), readThesisLike(t, map[string]string{"deployment": "native", "kernel": "vanilla", "load": "none"}), "")
	if err != nil {
		t.Fatal(err)
	}
	// The text has four significant digits, so it is the same on every
	// architecture; the JSON's full digits are not (arm64 fuses multiply-adds).
	for _, format := range []string{"txt"} {
		var b bytes.Buffer
		if err := WriteText(&b, []*Result{r}); err != nil {
			t.Fatal(err)
		}
		testenv.Golden(t, filepath.Join("testdata", "thesis_like."+format+".golden"), b.Bytes(), *update)
	}
}

func TestJSONHasWhatTheDocsPromise(t *testing.T) {
	r, err := Analyze(t.Context(), readThesisLike(t, nil), "")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema   string `json:"schema"`
		Analyses []struct {
			Manova       map[string][]map[string]any `json:"manova"`
			Anova        map[string][]map[string]any `json:"anova"`
			Coefficients map[string][]map[string]any `json:"coefficients"`
		} `json:"analyses"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Analyses[0]
	for _, test := range []string{"Pillai", "Wilks", "Hotelling-Lawley", "Roy"} {
		for _, k := range []string{"term", "df", "stat", "approx_F", "num_df", "den_df", "p"} {
			if _, ok := a.Manova[test][0][k]; !ok {
				t.Errorf("manova %s lacks %s", test, k)
			}
		}
	}
	for _, k := range []string{"term", "df", "sum_sq", "mean_sq", "F", "p"} {
		if _, ok := a.Anova["work"][0][k]; !ok {
			t.Errorf("anova lacks %s", k)
		}
	}
	if res := a.Anova["work"][len(a.Anova["work"])-1]; res["term"] != "Residuals" || res["F"] != nil {
		t.Errorf("residual row %v", res)
	}
	if c := a.Coefficients["sleep"][0]; c["term"] != "(Intercept)" || c["estimate"] == nil {
		t.Errorf("coefficient %v", c)
	}
}

func TestReadCSV(t *testing.T) {
	const data = "run,\"env\",load,lat,work\n" +
		"r1,native,none,10,100\nr1,native,none,12,NA\nr1,native,none,14,104\n" +
		"r2,\"docker, host\",none,20,101\nr2,\"docker, host\",none,22,103\n" +
		"r3,native,cpu,30,110\nr3,native,cpu,,111\nr4,\"docker, host\",cpu,40,120\r\n\n"
	rows, runs, err := ReadCSV(strings.NewReader(data), CSVOptions{Name: "x", Responses: []string{"lat", "work"}, Factors: []string{"env", "load"},
		RunColumn: "run", AppearanceOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	if rows.Cells.N() != 6 || rows.Cells.Skipped() != 2 || runs.Cells.N() != 4 || runs.Runs != 4 {
		t.Fatalf("rows %v (skipped %d), runs %v", rows.Cells.N(), rows.Cells.Skipped(), runs.Cells.N())
	}
	if lv := rows.Cells.Factors[0].Levels; strings.Join(lv, "|") != "native|docker, host" {
		t.Errorf("env levels %q", lv)
	}
	for _, cl := range runs.Cells.List() {
		if cl.Codes[0] == 0 && cl.Codes[1] == 0 && (cl.Mean[0] != 12 || cl.Mean[1] != 102) {
			t.Errorf("run r1's means %v, want 12 and 102 (complete rows only)", cl.Mean)
		}
	}
	if !strings.Contains(strings.Join(rows.Notes, " "), "2 rows with a missing response") {
		t.Errorf("notes %v", rows.Notes)
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		data string
		o    CSVOptions
		want string
	}{
		{"a,y\nx,1\n", CSVOptions{Responses: []string{"z"}, Factors: []string{"a"}}, `no column "z"; the columns are: a, y`},
		{"a,y\nx,1\nx,lots\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}}, `line 3, column y: "lots" is not a number`},
		{"a,y\nx,1,2\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}}, "line 2 has 3 fields"},
		{"a,y\n\"x,1\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}}, "quoted field does not end"},
		{"r,a,y\n1,x,1\n1,w,2\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}, RunColumn: "r"}, "run 1: its rows are in different cells"},
		{"a,y\nx,1\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}, References: map[string]string{"a": "w"}}, `reference level "w" of a`},
		{"a,y\nx,NA\n", CSVOptions{Responses: []string{"y"}, Factors: []string{"a"}}, "no complete rows"},
	}
	for _, tt := range tests {
		_, _, err := ReadCSV(strings.NewReader(tt.data), tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.data, err, tt.want)
		}
	}
}

func TestAnalyzeDropsConstantFactors(t *testing.T) {
	rows, _, err := ReadCSV(strings.NewReader("k,e,y\nv,n,1\nv,n,2\nv,d,3\nv,d,5\n"), CSVOptions{Responses: []string{"y"}, Factors: []string{"k", "e"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(t.Context(), rows, "e + k + e:k")
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "e" || !strings.Contains(strings.Join(r.Notes, " "), "k has one level in these data (v): the terms k, e:k are left out") {
		t.Errorf("model %q, notes %v", r.Model, r.Notes)
	}
	if _, err := Analyze(t.Context(), rows, "k"); err == nil {
		t.Error("a model of constant factors was fitted")
	}
	if _, err := Analyze(t.Context(), rows, "e + nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown factor: %v", err)
	}
}

// zeros is an endless stream of zero bytes, as /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestReadCSVRefusesEndlessLines: issue 15 item 8, analyze --csv /dev/zero
// grew to ~24 GB and was killed by the kernel.
func TestReadCSVRefusesEndlessLines(t *testing.T) {
	_, _, err := ReadCSV(zeros{}, CSVOptions{Name: "zero", Responses: []string{"y"}, Factors: []string{"a"}})
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("err = %v, want the line bound named", err)
	}
}

// TestReadCSVMemoryFollowsTheRows: a CSV of many cells with few rows each
// takes memory in proportion to its rows. Each cell used to get a whole
// batch's room (64 KiB) at its first row: 10 GB for two 400-level factors,
// read before analyze could refuse the model (issue 25 item 11).
func TestReadCSVMemoryFollowsTheRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,y\n")
	const levels = 150 // 22,500 cells of one row: 1.4 GB before
	for i := range levels {
		for j := range levels {
			fmt.Fprintf(&b, "a%d,b%d,%d\n", i, j, (i+j)%7)
		}
	}
	csv := b.String()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, _, err := ReadCSV(strings.NewReader(csv), CSVOptions{Name: "c.csv", Responses: []string{"y"}, Factors: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(200<<20); got > limit {
		t.Errorf("reading %d bytes of CSV (%d cells) allocated %d MiB, want at most %d MiB", len(csv), levels*levels, got>>20, limit>>20)
	}
}

// TestModelFactorsAddTheModelsVariables: a CSV's factors are those given,
// then the model's other variables in formula order, each once.
func TestModelFactorsAddTheModelsVariables(t *testing.T) {
	for _, tt := range []struct {
		model   string
		factors []string
		want    []string
	}{
		{"env + kernel + env:kernel", nil, []string{"env", "kernel"}},
		{"env*load", []string{"load", "host"}, []string{"load", "host", "env"}},
		{"a", []string{"a"}, []string{"a"}},
	} {
		got, err := ModelFactors(tt.model, tt.factors)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ModelFactors(%q, %v) = %v, %v; want %v", tt.model, tt.factors, got, err, tt.want)
		}
	}
	if _, err := ModelFactors("env +", nil); err == nil {
		t.Error("ModelFactors accepted a broken formula")
	}
	if !errors.Is(ErrNoResidualDF, stats.ErrNoResidualDF) {
		t.Error("ErrNoResidualDF is not stats.ErrNoResidualDF: the CLI would stop instead of leaving the run-level test out")
	}
}
