// Package report turns a study's stored samples into what people read,
// as data. The model is a Report (Build, FromStudy): cells with their
// statistics and overheads against the baseline, the warnings grouped by
// cause, the verdicts, effect sizes, attributions with their advice, and
// the comparison (Compare) and by-device (NewDevices) types. Its JSON is
// the boxtax.report/v1 schema (and a comparison's, a report by device's),
// written here.
//
// Every other format is a function of the model in a package of its own,
// registered by name in this package's registries from that package's
// init (RegisterFormat, RegisterCompareFormat, RegisterDeviceFormat): the
// tables (table, Markdown, LaTeX, CSV) in package report/tables, the HTML
// page and its figures in package report/page. A program links them in
// with one import each; Write, WriteComparison and WriteDevices then
// render any of them by name. The gate (package gate) and the published
// values (package report/papers) read the model from outside; report
// imports none of them.
package report
