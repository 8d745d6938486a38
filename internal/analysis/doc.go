// Package analysis turns stored studies, or a CSV of the user's own, into
// the factorial analysis of seed 002 (Masek & Thulin 2016, Tables 5.1-5.9):
// descriptive statistics by scenario, MANOVA of several responses and ANOVA
// of each, with effect sizes, and the linear model's coefficients.
//
// A Dataset is observations grouped by cell (a combination of factor
// levels) as sufficient statistics (stats.Cells), so that an hour of 100 Hz
// time slices from every run of a study costs kilobytes, not gigabytes. Each
// analysis is made twice where the data allow: per slice (every observation,
// as the thesis did) and per run (one mean per run: the unit of
// replication), because with millions of slices every p-value is tiny and
// only effect sizes speak, while the run-level test asks whether the
// difference survives the run-to-run spread.
//
// Studies from several databases or boots can be analysed together; the
// kernel becomes a factor read from each study's host facts (PREEMPT_RT or
// not), as the thesis's vanilla/RT_preempt treatment.
package analysis
