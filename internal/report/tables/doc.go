// Package tables writes a report (package report's model) as tables a
// person reads: the terminal's table with the verdict and the warnings
// (WriteTable), Markdown, LaTeX for a paper and the tidy CSV; a comparison
// of studies, a study by device (table, markdown, csv, and an HTML page with
// its figure) and a history. Each is a plain function of the model; package
// report/formats names them. The table and Markdown writers show control
// characters in stored text as escapes (termtext.Wrap). What the HTML
// report shows of the attributions is here too (AttributionViews), for
// package page.
package tables
