package analysis

import (
	"errors"
	"slices"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
)

// TestModelFactorsAddTheModelsVariables: a CSV's factors are those given,
// then the model's other variables in formula order, each once.
func TestModelFactorsAddTheModelsVariables(t *testing.T) {
	for _, tt := range []struct {
		model   string
		factors []string
		want    []string
	}{
		{"env + kernel + env:kernel", nil, []string{"env", "kernel"}},
		{"env*load", []string{"load", "host"}, []string{"load", "host", "env"}},
		{"a", []string{"a"}, []string{"a"}},
	} {
		got, err := ModelFactors(tt.model, tt.factors)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ModelFactors(%q, %v) = %v, %v; want %v", tt.model, tt.factors, got, err, tt.want)
		}
	}
	if _, err := ModelFactors("env +", nil); err == nil {
		t.Error("ModelFactors accepted a broken formula")
	}
	if !errors.Is(ErrNoResidualDF, stats.ErrNoResidualDF) {
		t.Error("ErrNoResidualDF is not stats.ErrNoResidualDF: the CLI would stop instead of leaving the run-level test out")
	}
}
