package workloadtest

import (
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// ParamCase is parameters to prepare a workload with and the text its
// error must mention ("" when they are good).
type ParamCase struct {
	Name    string
	Params  workload.Params
	WantErr string
}

// CheckParams prepares w with each case's parameters, one subtest each
// named after the case, and checks the error with CheckErr.
func CheckParams(t *testing.T, w workload.Workload, cases []ParamCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			_, _, err := workload.Prepare(w, tc.Params)
			CheckErr(t, err, tc.WantErr)
		})
	}
}
