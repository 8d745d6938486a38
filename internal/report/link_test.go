package report_test

// The formats registered from outside the model, linked into this
// package's tests as cmd/boxtax links them, so that its golden files cover
// every format of a report, a comparison and a report by device.
import (
	_ "github.com/boxtax/boxtax/internal/report/page"   // html
	_ "github.com/boxtax/boxtax/internal/report/tables" // table, markdown, latex, csv
)
