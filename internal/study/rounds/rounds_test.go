package rounds

import (
	"testing"

	"github.com/boxtax/boxtax/internal/errtest"
)

// TestParseBudgetSaysTheMaximum: issue 42, 15: a budget too long for a
// duration (2562048h) was told to be "at least 30s"; it is told the most.
func TestParseBudgetSaysTheMaximum(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"2562048h", `"2562048h" is too long: a budget is at most 8760h0m0s`},
		{"9000h", `"9000h" is too long: a budget is at most 8760h0m0s`},
		{"10s", "want a duration of at least 30s"},
		{"soon", "want a duration of at least 30s"},
		{"-2562048h", "want a duration of at least 30s"},
	} {
		_, err := ParseBudget(tc.in)
		errtest.Want(t, err, tc.want)
	}
	if b, err := ParseBudget("8760h"); err != nil || b != MaxBudget {
		t.Errorf("ParseBudget(8760h) = %v, %v", b, err)
	}
}
