// Package tables writes a report (package report's model) as tables a
// person reads: the terminal's table with the verdict and the warnings
// (table), Markdown, LaTeX for a paper and the tidy CSV; a comparison of
// studies (table, markdown) and a study by device (table, markdown, csv,
// and an HTML page with its figure). Each format is a function of the
// model, registered by name in report's format registries from this
// package's init: a program links them in with one import, as cmd/boxtax
// does. What the HTML report shows of the attributions is here too
// (AttributionViews), for package page.
package tables
