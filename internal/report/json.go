package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints a document (a report: boxtax.report/v1; a comparison, a
// report by host, a history, a paper comparison) as JSON indented by two
// spaces: it is their schema (Schema, CompareSchema, DevicesSchema,
// HistorySchema).
func WriteJSON[T any](w io.Writer, doc T) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
