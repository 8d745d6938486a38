package npb

import (
	"context"
	"fmt"
	"time"
)

// IS: ranks 2^n integer keys (bucket/counting sort) ten times; verified
// by the ranks of five test keys in every iteration (partial verification)
// and by the full sort at the end.

// isClass are log2 of the number of keys and of the key range.
type isClass struct{ totalKeysLog2, maxKeyLog2 int }

var isClasses = map[string]isClass{"S": {16, 11}, "W": {20, 16}, "A": {23, 19}}

// isTest holds NPB's official test key indexes and their ranks per class.
var isTest = map[string]struct{ index, rank [5]int32 }{
	"S": {[5]int32{48427, 17148, 23627, 62548, 4431}, [5]int32{0, 18, 346, 64917, 65463}},
	"W": {[5]int32{357773, 934767, 875723, 898999, 404505}, [5]int32{1249, 11698, 1039987, 1043896, 1048018}},
	"A": {[5]int32{2112377, 662041, 5336171, 3642833, 4250760}, [5]int32{104, 17523, 123928, 8288932, 8388264}},
}

const isIterations = 10

// isMemory is the bytes a class of IS holds at the peak.
func isMemory(class string) int64 {
	c := isClasses[class]
	return 3*4<<c.totalKeysLog2 + 4*4<<c.maxKeyLog2
}

// isState is one IS problem: the keys and the cumulative key counts.
type isState struct {
	class   string
	keys    []int32
	maxKey  int
	counts  []int32   // counts[v] = number of keys <= v after rank
	partial [][]int32 // per worker key histograms
	threads int
}

func newIS(class string, threads int) *isState {
	c := isClasses[class]
	n, maxKey := 1<<c.totalKeysLog2, 1<<c.maxKeyLog2
	s := &isState{class: class, keys: make([]int32, n), maxKey: maxKey, counts: make([]int32, maxKey), threads: threads}
	// create_seq: each key is MAX_KEY/4 times the sum of four uniforms.
	g := lcg{x: seedMain}
	k := float64(maxKey / 4)
	for i := range s.keys {
		x := g.next(npbA)
		x += g.next(npbA)
		x += g.next(npbA)
		x += g.next(npbA)
		s.keys[i] = int32(k * x)
	}
	for range threads {
		s.partial = append(s.partial, make([]int32, maxKey))
	}
	return s
}

// rank is one IS iteration: modify two keys, rank all, and check the five
// test keys' ranks; it returns how many of them verified.
func (s *isState) rank(iteration int) int {
	s.keys[iteration] = int32(iteration)
	s.keys[iteration+isIterations] = int32(s.maxKey - iteration)
	test := isTest[s.class]
	var vals [5]int32
	for i, idx := range test.index {
		vals[i] = s.keys[idx]
	}
	parallelFor(s.threads, len(s.keys), func(w, lo, hi int) {
		h := s.partial[w]
		clear(h)
		for _, k := range s.keys[lo:hi] {
			h[k]++
		}
	})
	parallelFor(s.threads, s.maxKey, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			var sum int32
			for _, h := range s.partial {
				sum += h[v]
			}
			s.counts[v] = sum
		}
	})
	for v := 1; v < s.maxKey; v++ {
		s.counts[v] += s.counts[v-1]
	}
	passed := 0
	for i, k := range vals {
		if k <= 0 || int(k) > len(s.keys)-1 {
			continue
		}
		got := s.counts[k-1]
		if got == test.rank[i]+isRankShift(s.class, i, iteration) {
			passed++
		}
	}
	return passed
}

// isRankShift is how NPB's expected rank of test key i moves with the
// iteration in each class (the two keys changed per iteration shift ranks).
func isRankShift(class string, i, iteration int) int32 {
	it := int32(iteration)
	switch class {
	case "S":
		if i <= 2 {
			return it
		}
		return -it
	case "W":
		if i < 2 {
			return it - 2
		}
		return -it
	default: // A
		if i <= 2 {
			return it - 1
		}
		return -(it - 1)
	}
}

// fullVerify sorts the keys by their ranks and counts keys out of order.
func (s *isState) fullVerify() int {
	pos := append([]int32(nil), s.counts...)
	sorted := make([]int32, len(s.keys))
	for _, k := range s.keys {
		pos[k]--
		sorted[pos[k]] = k
	}
	bad := 0
	for i := 1; i < len(sorted); i++ {
		if sorted[i-1] > sorted[i] {
			bad++
		}
	}
	return bad
}

func runIS(ctx context.Context, class string, threads int) (result, error) {
	s := newIS(class, threads)
	s.rank(1) // NPB's untimed first iteration
	passed := 0
	start := time.Now()
	for it := 1; it <= isIterations; it++ {
		if err := ctx.Err(); err != nil {
			return result{}, err
		}
		passed += s.rank(it)
	}
	secs := time.Since(start).Seconds()
	bad := s.fullVerify()
	if err := verifyIS(passed, bad); err != nil {
		return result{}, err
	}
	return result{seconds: secs, mops: float64(isIterations*len(s.keys)) / secs / 1e6,
		size: fmt.Sprint(len(s.keys)), verify: fmt.Sprintf("%d of %d partial verifications and the full sort", passed, 5*isIterations)}, nil
}

// verifyIS checks that every test key had its official rank in every
// iteration and that the final ranking sorts the keys.
func verifyIS(passed, outOfOrder int) error {
	if passed != 5*isIterations {
		return fmt.Errorf("VERIFICATION FAILED: %d of %d test key ranks match NPB's official ranks", passed, 5*isIterations)
	}
	if outOfOrder != 0 {
		return fmt.Errorf("VERIFICATION FAILED: full verify found %d keys out of sort", outOfOrder)
	}
	return nil
}
