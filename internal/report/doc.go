// Package report turns a study's stored samples into what people read,
// as data. The model is a Report (Build, FromStudy): cells with their
// statistics and overheads against the baseline, the warnings grouped by
// cause, the verdicts, effect sizes, attributions with their advice, and
// the comparison (Compare), by-device (NewDevices) and history (NewHistory)
// types. Their JSON is the boxtax.report/v1 schema (and a comparison's, a
// report by device's), written here (WriteJSON).
//
// Every other format is a plain function of the model in a package of its
// own: the tables (table, Markdown, LaTeX, CSV) in package report/tables,
// the HTML page and its figures in package report/page, the published
// values beside a report in package report/papers; package report/formats
// names them all in one map. The gate (package gate) reads the model from
// outside too; report imports none of them.
package report
