// Package page draws a report's figures (Figures: SVG plots of the
// overheads, the runs' spread, parts, percentiles and long series) and
// renders the report as one self-contained HTML page with them (Write), the
// report's "html" format. Both are
// functions of a *report.Report; neither adds a method to it.
package page
