// Package result is a study's results as data, below the study that
// takes them and the report that shows them: the cells measured from the
// stored runs and samples, each metric against its baseline (across
// rounds at 95 %, and paired by round), the rounds each cell is planned
// in, and the firm verdicts (stats.DecideFirm) an adaptive study's
// stopping rule takes and answers with, with the further rounds each
// still needs. The stopping rule
// (study), the report, the gate and the report's formats all read these
// one set of cells; nothing here knows of them.
package result
