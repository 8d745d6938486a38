package rounds

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/boxtax/boxtax/internal/lazyre"
)

// Adaptive asks for repetitions until every overhead is decided, after
// Phoronix's dynamic run count. The study's first rounds are whole
// randomized rounds (every cell once); after them the stopping rule
// (result.Decide, Stopping) judges every primary metric's overhead: a cost
// (its 95 % interval excludes 0) or no difference beyond ±PrecisionPct.
// While a cell is undecided, fewer than MaxRepetitions rounds have run and
// the study's budget allows, one more round is planned: a focused round
// (result.Decisions.Focus), which measures only the cells still undecided that
// are likely to be decided in the rounds left, each with its baseline, in
// the randomized order a whole round would have, so that every cell
// still measured keeps its baseline beside it in each round (the pairs
// of a blocked design) and no time goes to cells already answered.
type Adaptive struct {
	PrecisionPct   float64 `yaml:"precision_pct"`   // the margin p of "no difference beyond ±p %", in % of the baseline
	MaxRepetitions int     `yaml:"max_repetitions"` // stop after this many rounds even if not reached
}

// MaxAdaptiveRepetitions bounds adaptive.max_repetitions.
const MaxAdaptiveRepetitions = 1000

// MinAdaptiveRepetitions is the fewest rounds an adaptive study starts with:
// an interval needs two runs a cell.
const MinAdaptiveRepetitions = 2

// Budget is a study's time budget (budget: 8m in a study file, --budget):
// a Go duration; 0: none.
type Budget time.Duration

// MinBudget is the shortest budget taken: below it no study gets past its
// first rounds, so a smaller one is a typo (8s for 8m).
const MinBudget = Budget(30 * time.Second)

// UnmarshalYAML reads a duration such as 8m or 1h30m.
func (b *Budget) UnmarshalYAML(v *yaml.Node) error {
	var s string
	if err := v.Decode(&s); err != nil {
		return err
	}
	d, err := ParseBudget(s)
	if err != nil {
		return fmt.Errorf("line %d: budget: %w", v.Line, err)
	}
	*b = d
	return nil
}

// MarshalYAML writes it as ParseBudget reads it.
func (b Budget) MarshalYAML() (any, error) { return b.String(), nil }

// String is the duration, e.g. 8m0s.
func (b Budget) String() string { return time.Duration(b).String() }

// MaxBudget is the longest budget: a year, far past any study's need and
// far from where a time's arithmetic would overflow.
const MaxBudget = Budget(365 * 24 * time.Hour)

// ParseBudget reads a budget: a duration of MinBudget to MaxBudget.
func ParseBudget(s string) (Budget, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil && strings.Contains(err.Error(), "invalid duration") && !strings.HasPrefix(strings.TrimSpace(s), "-") && hugeDuration.Get().MatchString(strings.TrimSpace(s)),
		err == nil && Budget(d) > MaxBudget:
		return 0, fmt.Errorf("%q is too long: a budget is at most %s (a year), like 8m or 1h30m", s, time.Duration(MaxBudget))
	case err != nil || Budget(d) < MinBudget:
		return 0, fmt.Errorf("want a duration of at least %s, like 8m or 1h30m, not %q", time.Duration(MinBudget), s)
	}
	return Budget(d), nil
}

// hugeDuration is a duration written well (digits and units) that
// time.ParseDuration refuses: one past its range of about 292 years.
var hugeDuration = lazyre.New(`^\+?([0-9]+(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$`)
