package analysis

import (
	"slices"

	"github.com/boxtax/boxtax/internal/stats"
)

// fullyCrossed tells whether every level of factor a was observed with
// every level of factor b. Only then can their interaction be estimated:
// a device without Docker has no container cells, and the env:host term
// would have a coefficient no data determine.
func fullyCrossed(factors []stats.Factor, cells *stats.Cells, a, b string) bool {
	ia := slices.IndexFunc(factors, func(f stats.Factor) bool { return f.Name == a })
	ib := slices.IndexFunc(factors, func(f stats.Factor) bool { return f.Name == b })
	if ia < 0 || ib < 0 {
		return false
	}
	seenA, seenB, pairs := map[int]bool{}, map[int]bool{}, map[[2]int]bool{}
	for _, cl := range cells.List() {
		seenA[cl.Codes[ia]], seenB[cl.Codes[ib]] = true, true
		pairs[[2]int{cl.Codes[ia], cl.Codes[ib]}] = true
	}
	return len(pairs) == len(seenA)*len(seenB)
}

// determines tells whether each level of factor a comes with one level of
// factor b only (b is a property of a, as a device's kernel is): then b's
// effect cannot be told from a's.
func determines(factors []stats.Factor, cells *stats.Cells, a, b string) bool {
	ia := slices.IndexFunc(factors, func(f stats.Factor) bool { return f.Name == a })
	ib := slices.IndexFunc(factors, func(f stats.Factor) bool { return f.Name == b })
	if ia < 0 || ib < 0 {
		return false
	}
	of := map[int]int{}
	for _, cl := range cells.List() {
		if prev, ok := of[cl.Codes[ia]]; ok && prev != cl.Codes[ib] {
			return false
		}
		of[cl.Codes[ia]] = cl.Codes[ib]
	}
	return true
}

// varies tells whether a factor takes two or more levels in the data.
func varies(factors []stats.Factor, cells *stats.Cells, name string) bool {
	i := slices.IndexFunc(factors, func(f stats.Factor) bool { return f.Name == name })
	if i < 0 {
		return false
	}
	seen := map[int]bool{}
	for _, cl := range cells.List() {
		seen[cl.Codes[i]] = true
	}
	return len(seen) > 1
}
