// Package report turns a study's stored samples into what people read. The
// model is a Report (Build, FromStudy): cells with their statistics and
// overheads against the baseline, warnings, effect sizes, attributions,
// and the comparison (Compare) and by-device (NewDevices) types. Each
// output format is a function of the model registered by name (Write): the
// overhead table in the seed studies' layout (native as mean (std), every
// other environment as % deviation from native (std)), Markdown, tidy CSV,
// JSON in the boxtax.report/v1 schema and LaTeX here; the HTML page and its
// figures in package report/page. The gate (package gate) and the
// published values (package report/papers) read the model from outside;
// report imports none of them.
package report
