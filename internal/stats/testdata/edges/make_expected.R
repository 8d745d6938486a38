# make_expected.R writes what R says at the edges of the linear-model
# analyses (expected.json): whether summary(manova(...)) accepts residuals
# that are collinear or nearly so (R: qr(D E D, tol = 1e-7), "residuals have
# rank r < p"), and what summary(aov(...)) and t.test do with a response
# that has no residual variance. edges_test.go compares package stats with
# it; Go needs no R.
#
# Run from internal/stats:   Rscript testdata/edges/make_expected.R
# Needs only base R. Values are written with 17 significant digits.

set.seed(20261123)
num <- function(x) if (is.na(x)) "null" else if (is.infinite(x)) sprintf('"%sInf"', if (x > 0) "+" else "-") else sprintf("%.17g", x)
vec <- function(x) paste0("[", paste(sapply(x, num), collapse = ", "), "]")
str <- function(x) sprintf('"%s"', gsub('"', '\\\\"', x))

g <- rep(c("a", "b"), each = 12)
x <- round(100 + 5 * (g == "b") + rnorm(24, 0, 3), 6)
noise <- rnorm(24)

# Two responses: x and 2x + eps * noise; the smaller eps, the nearer to
# collinear. R either computes the test or stops with the rank.
cases <- c()
for (eps in c(1e-1, 3e-2, 1e-2, 7e-3, 5e-3, 4e-3, 3e-3, 2e-3, 1e-3, 1e-5, 1e-9, 0)) {
  y2 <- 2 * x + eps * noise
  fit <- manova(cbind(x, y2) ~ g)
  res <- tryCatch(summary(fit, test = "Pillai"), error = function(e) e)
  if (inherits(res, "error")) {
    out <- sprintf('{"name": "eps %g", "g": [%s], "y1": %s, "y2": %s, "error": %s}', eps,
      paste(str(g), collapse = ", "), vec(x), vec(y2), str(conditionMessage(res)))
  } else {
    st <- res$stats
    out <- sprintf('{"name": "eps %g", "g": [%s], "y1": %s, "y2": %s, "pillai": %s, "approx_f": %s, "p": %s}', eps,
      paste(str(g), collapse = ", "), vec(x), vec(y2), num(st[1, 2]), num(st[1, 3]), num(st[1, 6]))
  }
  cases <- c(cases, out)
}

# A response constant within each group but different between them: no
# residual variance. R's aov gives F = Inf (or NaN), manova refuses it.
flat <- ifelse(g == "a", 1.9, 2.0)
a <- summary(aov(flat ~ g))[[1]]
m <- tryCatch(summary(manova(cbind(x, flat) ~ g)), error = function(e) conditionMessage(e))
tt <- tryCatch(t.test(flat[g == "a"], flat[g == "b"])$p.value, error = function(e) conditionMessage(e))
flatcase <- sprintf('{"g": [%s], "y1": %s, "flat": %s, "aov_f": %s, "manova_error": %s, "t_test_error": %s}',
  paste(str(g), collapse = ", "), vec(x), vec(flat), num(a[1, "F value"]), str(m), str(tt))

cat(sprintf('{\n"r_version": %s,\n"collinear": [\n%s\n],\n"flat": %s\n}\n', str(R.version.string),
  paste(cases, collapse = ",\n"), flatcase), file = "testdata/edges/expected.json")
