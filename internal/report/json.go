package report

import (
	"encoding/json"
	"io"
)

func init() { RegisterFormat("json", WriteJSON[*Report]) }

// WriteJSON prints a document (a report: boxtax.report/v1; a comparison, a
// report by host, a paper comparison) as JSON indented by two spaces.
func WriteJSON[T any](w io.Writer, doc T) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
