package analysis

import (
	"slices"

	"github.com/boxtax/boxtax/internal/stats"
)

// ErrNoResidualDF says a model has as many parameters as observations:
// too few runs for the run-level test (stats.ErrNoResidualDF).
var ErrNoResidualDF = stats.ErrNoResidualDF

// ModelFactors are the categorical columns a CSV analysis of the model
// needs: those given, then every other variable the model names, in the
// order it names them. A formula that does not parse is an error.
func ModelFactors(model string, factors []string) ([]string, error) {
	terms, err := stats.ParseFormula(model)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(factors)
	for _, t := range terms {
		for _, v := range t {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out, nil
}
