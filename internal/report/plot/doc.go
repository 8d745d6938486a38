// Package plot draws the charts of boxtax reports as self-contained SVG:
// grouped bars with error bars, lines against a swept factor, stacked bars,
// cumulative distributions, quartile boxes and interval (forest) plots.
//
// A chart is a plain value holding numbers and labels; SVG renders it. The
// output needs nothing outside itself: no scripts, no external fonts or
// style sheets, so it can sit inline in an HTML report that opens offline or
// be written to a file of its own. Every label is escaped, whoever wrote it.
// Hovering a mark shows its exact value (SVG <title>), without JavaScript.
//
// The package knows nothing of studies or workloads; internal/report turns
// cells into charts.
package plot
