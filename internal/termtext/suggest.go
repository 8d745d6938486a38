package termtext

// The nearest valid name for a name a user mistyped (a flag, a workload, an
// environment, a preset, a command), by edit distance, so that an error can
// say "did you mean ...?". It lives here, with the other text boxtax shows
// about what it was given, so that every package that names things may use
// it (the cli imports few packages).

import (
	"fmt"
	"strings"
)

// Closest returns the valid name nearest to name, or "" when none is near
// enough to be a typo: at most a third of the name's letters (at least one,
// at most three) inserted, deleted, replaced or swapped with a neighbour. A
// valid name that begins with name (cpu for cpu.prime) also counts. Ties go
// to the first in valid.
func Closest(name string, valid []string) string {
	name = strings.ToLower(name)
	if name == "" {
		return ""
	}
	limit := min(max(len([]rune(name))/3, 1), 3)
	best, bestDist := "", limit+1
	for _, v := range valid {
		d := Distance(name, strings.ToLower(v))
		if d < bestDist {
			best, bestDist = v, d
		}
	}
	if best != "" {
		return best
	}
	for _, v := range valid {
		if len(name) >= 3 && strings.HasPrefix(strings.ToLower(v), name) {
			return v
		}
	}
	return ""
}

// DidYouMean is "; did you mean "x"?" for the valid name closest to name,
// or "" when there is none (see Closest), to append to an error.
func DidYouMean(name string, valid []string) string {
	if c := Closest(name, valid); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}

// Distance is the optimal string alignment distance between a and b: the
// insertions, deletions, replacements and swaps of two neighbouring letters
// that make one the other.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
