package cli

import (
	"context"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
)

// storedReport is study id in the database at path as study.Open reads
// it, and its report (not paired) as boxtax report builds it.
func storedReport(t *testing.T, path string, id int64) (*study.Stored, *report.Report) {
	t.Helper()
	s, err := study.Open(context.Background(), testenv.OpenStore(t, path), id)
	if err != nil {
		t.Fatal(err)
	}
	return s, report.FromStudy(s, false)
}
