// Package cpuset parses and prints CPU lists ("0-3,6") as the kernel and
// Docker's --cpuset-cpus write them, splits them for placement, pins the
// calling process, and says which CPUs this host has online.
package cpuset

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Set is a sorted list of CPU numbers without duplicates.
type Set []int

// MaxCPU is the largest CPU number Linux can have (NR_CPUS is at most
// 8192), so that "0-4000000000" is an error, not billions of iterations.
const MaxCPU = 8191

// Parse reads a CPU list such as "0-3,6".
func Parse(s string) (Set, error) {
	seen := map[int]bool{}
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, errA := strconv.Atoi(lo)
		b, errB := a, error(nil)
		if isRange {
			b, errB = strconv.Atoi(hi)
		}
		if errA != nil || errB != nil || a < 0 || b < a {
			return nil, fmt.Errorf("CPU list %q: %q is not a CPU number or range like 0-3", s, part)
		}
		if b > MaxCPU {
			return nil, fmt.Errorf("CPU list %q: CPU %d is beyond the largest CPU number Linux supports (%d)", s, b, MaxCPU)
		}
		for c := a; c <= b; c++ {
			seen[c] = true
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("CPU list %q names no CPU", s)
	}
	out := make(Set, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out, nil
}

// String prints the set in the kernel's compact form.
func (s Set) String() string {
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j]))
		} else {
			parts = append(parts, strconv.Itoa(s[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Online reads the CPUs the kernel has online.
func Online() (Set, error) {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return nil, fmt.Errorf("reading the online CPUs: %w", err)
	}
	return Parse(string(b))
}

// Within checks that every CPU of s is in host, naming the absent ones.
func (s Set) Within(host Set) error {
	have := map[int]bool{}
	for _, c := range host {
		have[c] = true
	}
	var absent []string
	for _, c := range s {
		if !have[c] {
			absent = append(absent, strconv.Itoa(c))
		}
	}
	if len(absent) > 0 {
		return fmt.Errorf("CPU(s) %s are not online on this host, which has %s", strings.Join(absent, ","), host)
	}
	return nil
}

// Split divides s into n disjoint parts as even as possible, in order:
// 4 CPUs into 2 parts are 0-1 and 2-3. It fails when n exceeds len(s).
func (s Set) Split(n int) ([]Set, error) {
	if n < 1 || n > len(s) {
		return nil, fmt.Errorf("cannot give %d instances a CPU each from %s (%d CPUs)", n, s, len(s))
	}
	out := make([]Set, n)
	for i := range n {
		lo, hi := i*len(s)/n, (i+1)*len(s)/n
		out[i] = s[lo:hi]
	}
	return out, nil
}
