package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestParseValueAsStrconv: the integer fast path reads every number as
// strconv.ParseFloat does, bit for bit, and leaves the rest to it.
func TestParseValueAsStrconv(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "7", "-7", "+7", "123456789012345", "-123456789012345",
		"1234567890123456", "99999999999999999999", "1.5", "-2e3", "0x10", "1_000", "00012", " 42 ", "Inf", "-inf"} {
		t.Run(s, func(t *testing.T) {
			got, gerr := parseValue([]byte(s))
			want, werr := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("parseValue(%q) error %v, strconv %v", s, gerr, werr)
			}
			if gerr == nil && math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("parseValue(%q) = %v (%x), strconv %v (%x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
			}
		})
	}
}

// TestReadCSVRowOrder: rows in runs of one cell (the look-ups skipped) and
// the same rows interleaved (looked up every time) give the same cells and
// the same per-run means.
func TestReadCSVRowOrder(t *testing.T) {
	type row struct {
		env, load string
		run       int
		y         float64
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []row
	run := 0
	for _, env := range []string{"native", "docker"} {
		for _, load := range []string{"none", "cpu"} {
			for r := 0; r < 3; r++ {
				run++
				for k := 0; k < 50; k++ {
					rows = append(rows, row{env, load, run, math.Round(rng.NormFloat64()*1000 + 5000)})
				}
			}
		}
	}
	write := func(rows []row) string {
		var b strings.Builder
		b.WriteString("env,load,run,y\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "%s,%s,%d,%v\n", r.env, r.load, r.run, r.y)
		}
		return b.String()
	}
	read := func(csv string) (*Dataset, *Dataset) {
		rows, runs, err := ReadCSV(strings.NewReader(csv), CSVOptions{Responses: []string{"y"}, Factors: []string{"env", "load"}, RunColumn: "run"})
		if err != nil {
			t.Fatal(err)
		}
		return rows, runs
	}
	grouped, groupedRuns := read(write(rows))
	shuffled := append([]row(nil), rows...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	mixed, mixedRuns := read(write(shuffled))
	for _, pair := range [][2]*Dataset{{grouped, mixed}, {groupedRuns, mixedRuns}} {
		a, b := pair[0].Cells.List(), pair[1].Cells.List()
		if len(a) != len(b) || len(a) != 4 {
			t.Fatalf("%d and %d cells, want 4", len(a), len(b))
		}
		byCodes := map[string]int{}
		for i, c := range b {
			byCodes[fmt.Sprint(c.Codes)] = i
		}
		for i := range a {
			j, ok := byCodes[fmt.Sprint(a[i].Codes)]
			if !ok {
				t.Fatalf("cell %v only in the grouped file", a[i].Codes)
			}
			if a[i].N != b[j].N || math.Abs(a[i].Mean[0]-b[j].Mean[0]) > 1e-9 || math.Abs(a[i].Comoment[0]-b[j].Comoment[0]) > 1e-6*a[i].Comoment[0] {
				t.Errorf("cell %v: grouped n %v mean %v comoment %v, shuffled n %v mean %v comoment %v",
					a[i].Codes, a[i].N, a[i].Mean[0], a[i].Comoment[0], b[j].N, b[j].Mean[0], b[j].Comoment[0])
			}
		}
	}
	if groupedRuns.Runs != 12 || mixedRuns.Runs != 12 {
		t.Errorf("runs %d and %d, want 12", groupedRuns.Runs, mixedRuns.Runs)
	}
}

// TestScanCSV: the bare parse reads the rows ReadCSV reads and refuses
// what it refuses.
func TestScanCSV(t *testing.T) {
	n, err := ScanCSV(strings.NewReader("a,y\nx,1\n\nx,2.5\ny,NA\n"), []string{"y"})
	if err != nil || n != 3 {
		t.Errorf("ScanCSV: %d rows, %v; want 3", n, err)
	}
	if _, err := ScanCSV(strings.NewReader("a,y\nx,1\nx,abc\n"), []string{"y"}); err == nil || !strings.Contains(err.Error(), "line 3, column y") {
		t.Errorf("ScanCSV of a bad value: %v", err)
	}
	if _, err := ScanCSV(strings.NewReader("a,y\nx,1\n"), []string{"z"}); err == nil || !strings.Contains(err.Error(), "no column") {
		t.Errorf("ScanCSV of a missing column: %v", err)
	}
}
