package stats

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// crossed is every combination of factor a with levelsA levels and b with
// levelsB, observed twice, with response y.
func crossed(t *testing.T, levelsA, levelsB int) *Cells {
	t.Helper()
	levels := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i)
		}
		return out
	}
	c := NewCells([]Factor{{Name: "a", Levels: levels(levelsA)}, {Name: "b", Levels: levels(levelsB)}}, []string{"y"})
	for i := range levelsA {
		for j := range levelsB {
			for rep := range 2 {
				if err := c.Add([]int{i, j}, []float64{float64(i%7+j%5) + float64(rep)}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return c
}

// TestFitRefusesAModelTooLargeToFit: issue 25 item 11, two factors of 400
// levels grew past 600 MB and went on: a model whose matrices would take
// more than MaxModelBytes is refused at once, with its size and the term
// that makes it.
func TestFitRefusesAModelTooLargeToFit(t *testing.T) {
	c := crossed(t, 400, 400)
	for _, tt := range []struct {
		name  string
		terms []Term
		want  []string
	}{
		{"with the interaction", []Term{{"a"}, {"b"}, {"a", "b"}}, []string{"the model's 160000 columns", "GiB", "the term a:b alone has 159201 columns", "leave out the terms"}},
		{"main effects over 160000 cells", []Term{{"a"}, {"b"}}, []string{"160000 observed cells by 799 columns", "985.1 MiB", "512.0 MiB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := FitContext(t.Context(), c, tt.terms)
			if err == nil {
				t.Fatal("fitted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q: %v", w, err)
				}
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("refused after %v, want at once", took)
			}
		})
	}
	// A design of many large factors is refused before its columns are
	// made, its column count beyond an int.
	big := make([]Factor, 8)
	var term Term
	for i := range big {
		big[i] = Factor{Name: fmt.Sprintf("f%d", i), Levels: make([]string, 400)}
		term = append(term, big[i].Name)
	}
	if _, err := NewDesign(big, []Term{term}); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Errorf("8 factors of 400 levels crossed: %v", err)
	}
}

// TestFitStopsWithItsContext: the fit of a model within the bound, which
// takes seconds, stops when its context ends: it answers with the
// context's error, not a fit (a fit that ran to its end answers with no
// error). How soon it stops is not asserted: on a busy machine the same
// work takes longer (issue 42); the time is logged.
func TestFitStopsWithItsContext(t *testing.T) {
	c := crossed(t, 1500, 3)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	fit, err := FitContext(ctx, c, []Term{{"a"}, {"b"}})
	if !errors.Is(err, context.Canceled) || fit != nil {
		t.Errorf("fit %v, error %v: want no fit and the context's error", fit != nil, err)
	}
	t.Logf("stopped %v after the start, %v after the cancel", time.Since(start), time.Since(start)-100*time.Millisecond)
}
