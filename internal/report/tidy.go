package report

import (
	"encoding/json"
	"io"
	"strconv"
)

func init() {
	RegisterFormat("csv", writeCSV)
	RegisterFormat("json", WriteJSON[*Report])
}

// writeCSV prints one row per sample with its run's levels (tidy data):
// study_id, host (the device label: run --host-label, else the hostname),
// run_id, seq, workload, env, one column per other factor, rep,
// warmup, status, instance (0: the run's figure; 1..N: one of N concurrent
// instances), metric, value, unit.
func writeCSV(w io.Writer, r *Report) error {
	cw := NewCSVWriter(w)
	if err := cw.Write(tidyHeader(r.factors)); err != nil {
		return err
	}
	for _, row := range tidyRows(r, r.factors) {
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// tidyHeader is the header of the tidy CSV with the given factor columns.
func tidyHeader(factors []string) []string {
	head := []string{"study_id", "host", "run_id", "seq", "workload", "env"}
	head = append(head, factors...)
	return append(head, "rep", "warmup", "status", "instance", "metric", "value", "unit")
}

// tidyRows are the report's rows of the tidy CSV, with a column for each
// of the given factors (empty where a run has no level of it).
func tidyRows(r *Report, factors []string) [][]string {
	host := r.host.Label()
	var out [][]string
	for _, ts := range r.samples {
		row := []string{strconv.FormatInt(r.Study.ID, 10), host, strconv.FormatInt(ts.run.ID, 10), strconv.Itoa(ts.run.Seq),
			ts.run.Workload, ts.run.Env}
		for _, f := range factors {
			row = append(row, ts.run.Levels[f])
		}
		row = append(row, strconv.Itoa(ts.run.Rep), strconv.FormatBool(ts.run.Warmup), ts.run.Status,
			strconv.Itoa(ts.sample.Instance), ts.sample.Metric, strconv.FormatFloat(ts.sample.Value, 'g', -1, 64), ts.sample.Unit)
		out = append(out, row)
	}
	return out
}

// WriteJSON prints a document (a report: boxtax.report/v1; a comparison, a
// report by host, a paper comparison) as JSON indented by two spaces.
func WriteJSON[T any](w io.Writer, doc T) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
