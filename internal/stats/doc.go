// Package stats holds the statistics boxtax owes its reader, as pure functions
// over plain float64 slices: descriptives (mean, standard deviation, quartiles),
// the Student t, F and normal distributions, Welch's two-sample t
// test, and the overhead of one level against the baseline with a Fieller
// confidence interval; and linear models of categorical factors (formula.go,
// design.go, lm.go) with R's sequential analysis of variance (anova.go) and
// multivariate tests (manova.go), fitted on per-cell sufficient statistics
// (cells.go) so that millions of observations cost no memory.
//
// The package imports only the standard library and nothing else of boxtax, so
// every function can be checked in isolation. The tests compare it with R
// (testdata/make_expected.R writes testdata/expected.json, and
// testdata/lm/make_expected.R the datasets and results of the linear models,
// which agree with lm, aov and summary.manova to about 1e-11): the distribution
// functions agree to about 3e-13 relative, with fractional df and tails down
// to 1e-300, and the descriptives, Welch's test and the Fieller interval to
// a few units in the last place.
//
// Non-finite input (NaN, +Inf, -Inf) is never averaged in: functions that take
// samples use only the finite values, and Summary.NonFinite says how many were
// left out, so a reader can see that a sample was not clean. Results that do
// not exist (the mean of nothing, an interval that would be unbounded) are NaN,
// with a Reason where the result type has one, rather than an invented number.
package stats
