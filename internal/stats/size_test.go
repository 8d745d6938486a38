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
			// Refused before the matrix is made, which would take minutes
			// or all the memory; 20 s is for a busy machine (a liveness
			// bound, not a speed).
			if took := time.Since(start); took > 20*time.Second {
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
// takes seconds, checks its context all along and stops at the first check
// after the context ends. Counted in checks, not in time: a busy machine
// stretches the time between two checks, never their number.
func TestFitStopsWithItsContext(t *testing.T) {
	c := crossed(t, 1500, 3)
	const endAt = 20 // the context ends at its 20th check: the fit must have checked it that often
	ctx := &countingContext{Context: t.Context(), endAt: endAt}
	_, err := FitContext(ctx, c, []Term{{"a"}, {"b"}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's (a fit that checks its context fewer than %d times ends without it)", err, endAt)
	}
	// The check that sees it ended, and the one that returns its error.
	if ctx.checks > endAt+1 {
		t.Errorf("the fit checked its context %d times, went on %d checks past its end", ctx.checks, ctx.checks-endAt)
	}
}

// countingContext counts the calls of Err and is cancelled from the
// endAt-th on.
type countingContext struct {
	context.Context
	endAt, checks int
}

func (c *countingContext) Err() error {
	c.checks++
	if c.checks >= c.endAt {
		return context.Canceled
	}
	return c.Context.Err()
}
