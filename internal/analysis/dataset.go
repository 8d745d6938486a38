package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
)

// Units of observation.
const (
	PerSlice = "slice" // every observation: a time slice, or a CSV row
	PerRun   = "run"   // one mean per run
)

// Dataset is observations of some responses grouped by cell.
type Dataset struct {
	Workload string // the workload measured, or the CSV's name
	Unit     string // PerSlice or PerRun
	// Observation names one observation of a PerSlice dataset: "slice", or
	// "row" for a CSV.
	Observation string
	Cells       *stats.Cells
	// Units names the responses' units (e.g. ns), by response.
	Units map[string]string
	// Runs is how many runs the observations come from (0 when unknown).
	Runs int
	// DefaultModel is the model used when none is given.
	DefaultModel string
	// Notes are facts a reader needs: a factor left out, studies combined.
	Notes []string

	scenario []runMetrics // per run, for the deadlines table (stored studies only)
}

// levelIndex keeps a factor's levels in order of appearance.
type levelIndex struct {
	name   string
	levels []string
	index  map[string]int
}

func newLevelIndex(name string) *levelIndex {
	return &levelIndex{name: name, index: map[string]int{}}
}

// code returns the level's index, adding it if new.
func (l *levelIndex) code(level string) int {
	if i, ok := l.index[level]; ok {
		return i
	}
	l.index[level] = len(l.levels)
	l.levels = append(l.levels, level)
	return len(l.levels) - 1
}

// codeBytes is code without allocating for a level already seen.
func (l *levelIndex) codeBytes(level []byte) int {
	if i, ok := l.index[string(level)]; ok {
		return i
	}
	return l.code(string(level))
}

// ordered returns the factor with its levels in the given order: sorted
// (as R's factor() sorts them) or as they appeared, and then with a chosen
// reference level moved first.
func (l *levelIndex) ordered(sorted bool, reference string) (stats.Factor, error) {
	levels := slices.Clone(l.levels)
	if sorted {
		slices.Sort(levels)
	}
	if reference != "" {
		i := slices.Index(levels, reference)
		if i < 0 {
			return stats.Factor{}, fmt.Errorf("reference level %q of %s is not among its levels (%s)", reference, l.name, strings.Join(levels, ", "))
		}
		levels = append([]string{reference}, slices.Delete(levels, i, i+1)...)
	}
	return stats.Factor{Name: l.name, Levels: levels}, nil
}

// ParseReferences reads "factor=level,factor=level".
func ParseReferences(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		f, lv, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(f) == "" || strings.TrimSpace(lv) == "" {
			return nil, fmt.Errorf("reference %q is not factor=level", part)
		}
		out[strings.TrimSpace(f)] = strings.TrimSpace(lv)
	}
	return out, nil
}
