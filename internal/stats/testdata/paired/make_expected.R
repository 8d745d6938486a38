# make_expected.R writes what R says about overheads measured in rounds
# (randomized complete blocks): the paired t test of x - baseline
# (t.test(paired = TRUE)) and the ends of the paired Fieller interval of
# mean(x)/mean(baseline), found here independently of the closed form in
# paired.go: the ratios rho at which the one-sample t statistic of
# x - rho * baseline equals the 97.5 % Student quantile (uniroot).
# paired_test.go compares PairedOverhead with it; Go needs no R.
#
# Run from internal/stats:   Rscript testdata/paired/make_expected.R

set.seed(20261124)
num <- function(x) sprintf("%.17g", x)
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
cases <- list()
add <- function(name, b, x) {
  n <- length(b)
  p <- t.test(x, b, paired = TRUE)$p.value
  q <- qt(0.975, n - 1)
  tstat <- function(rho) { d <- x - rho * b; mean(d) / (sd(d) / sqrt(n)) }
  r0 <- mean(x) / mean(b)
  lo <- uniroot(function(r) tstat(r) - q, c(r0 * 0.2, r0), tol = 1e-14)$root
  hi <- uniroot(function(r) tstat(r) + q, c(r0, r0 * 5), tol = 1e-14)$root
  cases[[length(cases) + 1]] <<- sprintf('{"name": "%s", "baseline": %s, "x": %s, "pct": %s, "lo_pct": %s, "hi_pct": %s, "p": %s}',
    name, vec(b), vec(x), num((r0 - 1) * 100), num((lo - 1) * 100), num((hi - 1) * 100), num(p))
}
# Rounds drift together (heat): a shared round effect plus small noise.
drift <- rnorm(8, 0, 20)
b <- 1000 + drift + rnorm(8, 0, 2)
add("drifting rounds, 3% slower", b, 1.03 * (1000 + drift) + rnorm(8, 0, 2))
add("drifting rounds, no difference", b, 1000 + drift + rnorm(8, 0, 2))
b5 <- 50 + rnorm(5, 0, 1)
add("independent rounds", b5, 52 + rnorm(5, 0, 1))
add("large baseline", 1e9 + rnorm(6, 0, 1e5), 1.0001e9 + rnorm(6, 0, 1e5))
cat(sprintf('{\n"r_version": "%s",\n"cases": [\n%s\n]\n}\n', R.version.string, paste(unlist(cases), collapse = ",\n")),
  file = "testdata/paired/expected.json")
