package report

import (
	"encoding/json"
	"io"
)

// A report, a comparison and a report by device are written as JSON here:
// it is their schema (Schema, CompareSchema, DevicesSchema, HistorySchema). The other
// formats are registered by the packages that write them.
func init() {
	RegisterFormat("json", WriteJSON[*Report])
	RegisterCompareFormat("json", WriteJSON[*Comparison])
	RegisterDeviceFormat("json", WriteJSON[*Devices])
	RegisterHistoryFormat("json", WriteJSON[*History])
}

// WriteJSON prints a document (a report: boxtax.report/v1; a comparison, a
// report by host, a paper comparison) as JSON indented by two spaces.
func WriteJSON[T any](w io.Writer, doc T) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
