package workloadtest

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// Refusal is parameters a workload must refuse, and what its error must say.
type Refusal struct {
	Params workload.Params
	Want   string
}

// Refuses checks that preparing w with the parameters of each refusal
// fails with an error that says its Want, one subtest each.
func Refuses(t *testing.T, w workload.Workload, refusals []Refusal) {
	t.Helper()
	for _, r := range refusals {
		t.Run(w.Info().Name+" "+r.Want, func(t *testing.T) {
			_, _, err := workload.Prepare(w, r.Params)
			if err == nil || !strings.Contains(err.Error(), r.Want) {
				t.Errorf("%v: error %v, want one saying %q", r.Params, err, r.Want)
			}
		})
	}
}
