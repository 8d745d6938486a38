# make_expected.R writes expected.json: values computed by R, independently of
# package stats, that expected_test.go compares the Go functions against.
#
# Run from internal/stats:   Rscript testdata/make_expected.R > testdata/expected.json
# Needs only base R (no packages). Samples are drawn here with a fixed seed and
# written out with 17 significant digits, so Go reads the very same doubles.
#
# Each case is {"fn", "args", "samples", "want"}: fn names the Go function under
# test (see expected_test.go), args are its numeric arguments, samples name
# entries of "samples". Only finite expected values are written.

set.seed(20240601)
samples <- list(
  native_ms   = rnorm(10, 100, 5),
  docker_ms   = rnorm(12, 104, 8),
  host_ms     = rnorm(8, 100.5, 6),
  two         = c(3.1, 4.7),
  three       = c(1, 2, 4),
  ties        = c(5, 5, 5, 6, 7, 7, 9, 12),
  offset_ns   = 1e6 + rnorm(15, 0, 3),
  offset_x_ns = 1e6 + 50 + rnorm(15, 0, 3),
  skewed      = rexp(40, 1 / 20),
  neg_base    = rnorm(10, -50, 4),
  neg_x       = rnorm(9, -55, 6),
  small_base  = rnorm(4, 10, 4),
  small_x     = rnorm(5, 11, 5),
  large       = rnorm(500, 50, 10)
)

num <- function(x) sprintf("%.17g", x)
cases <- character(0)
add <- function(fn, want, args = numeric(0), smp = character(0)) {
  if (!is.finite(want)) return(invisible())
  a <- paste(vapply(args, num, ""), collapse = ", ")
  s <- paste0('"', smp, '"', collapse = ", ")
  if (length(smp) == 0) s <- ""
  cases <<- c(cases, sprintf('    {"fn": "%s", "args": [%s], "samples": [%s], "want": %s}',
                             fn, a, s, num(want)))
}

# Descriptives: quantile type 7 is R's default.
for (name in names(samples)) {
  x <- samples[[name]]
  add("mean", mean(x), smp = name)
  add("sd", sd(x), smp = name)
  add("min", min(x), smp = name)
  add("q1", quantile(x, 0.25, type = 7, names = FALSE), smp = name)
  add("median", median(x), smp = name)
  add("q3", quantile(x, 0.75, type = 7, names = FALSE), smp = name)
  add("max", max(x), smp = name)
  add("cv", sd(x) / mean(x), smp = name)
  for (p in c(0, 0.01, 0.1, 0.33, 0.5, 0.9, 0.99, 1))
    add("quantile7", quantile(x, p, type = 7, names = FALSE), p, name)
}

# qt_checked returns qt(p, df) when R's own pt maps it back to p within 1e-13.
# Far out with small df (p = 1e-300, df = 1.5) R's qt can be off by 1 %; there
# the quantile is refined by uniroot on log pt(-exp(u), df) against u = log|t|,
# so the expected value still rests on R's pt (TOMS 708 incomplete beta).
# qt(0.5, df) is not asked: it is 0 exactly, and R returns ~1e-16 for df < 1.
qt_checked <- function(p, df) {
  q <- qt(p, df)
  if (!is.finite(q)) return(q)
  tail <- min(p, 1 - p)
  logtail <- function(t) pt(-abs(t), df, log.p = TRUE)
  if (abs(expm1(logtail(q) - log(tail))) <= 1e-13) return(q)
  h <- function(u) logtail(exp(u)) - log(tail)
  u0 <- log(abs(q))
  u <- uniroot(h, c(u0 - 1, u0 + 1), extendInt = "downX",
               tol = 4 * .Machine$double.eps * abs(u0))$root
  stopifnot(abs(h(u)) < 1e-12)
  message(sprintf("qt(%.11g, %g): R's qt %.17g refined to %.17g", p, df, q, sign(q) * exp(u)))
  sign(q) * exp(u)
}

# Distributions, including fractional degrees of freedom and far tails.
# R's pt switches to a normal approximation above 4e5 df, so none is larger.
dfs <- c(0.1, 0.5, 1, 1.5, 2, 2.5, 3, 4.7, 5, 10, 29.3, 100, 1000, 2500, 1e5, 3.5e5)
for (df in dfs) {
  for (x in c(-1e10, -1e5, -100, -40, -10, -3, -2, -1, -0.5, -1e-3, -1e-8, 0,
              1e-8, 0.3, 1, 2.5, 7, 40))
    add("pt", pt(x, df), c(x, df))
  for (p in c(1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 1e-3, 0.01, 0.025, 0.05, 0.1,
              0.2, 0.25, 0.3, 0.4, 0.45, 0.499, 0.501, 0.6, 0.75, 0.9, 0.95,
              0.975, 0.99, 0.999, 1 - 1e-10))
    add("qt", qt_checked(p, df), c(p, df))
}
for (x in c(-37.5, -20, -8, -3, -1.96, -1, -1e-5, 0, 0.5, 1.644854, 3, 8))
  add("pnorm", pnorm(x), x)
for (p in c(1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.3, 0.5, 0.7,
            0.975, 0.999, 1 - 1e-12))
  add("qnorm", qnorm(p), p)
for (d in list(c(1, 1), c(2, 10), c(3.5, 7.3), c(5, 5), c(10, 1e4), c(0.5, 2), c(40, 3),
               c(3, 2e6), c(1, 1.4e7), c(1e6, 2), c(800, 900))) {
  for (x in c(1e-4, 0.01, 0.5, 1, 2.3, 4, 15, 100, 1e4)) {
    add("pf", pf(x, d[1], d[2]), c(x, d))
    add("pf.upper", pf(x, d[1], d[2], lower.tail = FALSE), c(x, d))
  }
}

# Welch's t test: t.test(a, b, var.equal = FALSE).
pairs <- list(c("docker_ms", "native_ms"), c("host_ms", "native_ms"),
              c("two", "three"), c("offset_x_ns", "offset_ns"),
              c("skewed", "native_ms"), c("neg_x", "neg_base"),
              c("large", "skewed"), c("small_x", "small_base"))
for (pr in pairs) {
  tt <- t.test(samples[[pr[1]]], samples[[pr[2]]], var.equal = FALSE)
  add("welch.t", tt$statistic, smp = pr)
  add("welch.df", tt$parameter, smp = pr)
  add("welch.p", tt$p.value, smp = pr)
  add("welch.diff", tt$estimate[[1]] - tt$estimate[[2]], smp = pr)
  add("welch.lo", tt$conf.int[1], smp = pr)
  add("welch.hi", tt$conf.int[2], smp = pr)
}

# Overhead with Fieller's interval for the ratio of means, as percent
# deviations d = rho - 1. The ends are found by uniroot on
# (xx - xb - d xb)^2 - t^2 (vx + (1 + d)^2 vb), bracketed from the estimate
# outwards, and checked against the quadratic formula in d.
fieller <- function(b, x, level) {
  xb <- mean(b); xx <- mean(x); D <- xx - xb
  vb <- var(b) / length(b); vx <- var(x) / length(x)
  r <- xx / xb
  df <- (vx + r^2 * vb)^2 / (vx^2 / (length(x) - 1) + r^4 * vb^2 / (length(b) - 1))
  t <- qt((1 + level) / 2, df)
  A <- xb^2 - t^2 * vb
  est <- D / xb
  out <- list(pct = est * 100, df = df, bounded = A > 0,
              p = t.test(x, b, var.equal = FALSE)$p.value)
  if (A <= 0) return(out)
  g <- function(d) (D - d * xb)^2 - t^2 * (vx + (1 + d)^2 * vb)
  step <- max(abs(est), 1e-6)
  tol <- 4 * .Machine$double.eps * abs(est)
  lo <- uniroot(g, c(est - step, est), extendInt = "downX", tol = tol)$root
  hi <- uniroot(g, c(est, est + step), extendInt = "upX", tol = tol)$root
  B <- xb * D + t^2 * vb
  C <- D^2 - t^2 * (vb + vx)
  closed <- sort((B + c(-1, 1) * sqrt(B^2 - A * C)) / A)
  stopifnot(isTRUE(all.equal(c(lo, hi), closed, tolerance = 1e-10)))
  out$lo <- lo * 100
  out$hi <- hi * 100
  out
}
overheads <- list(list("native_ms", "docker_ms", 0.95), list("native_ms", "host_ms", 0.95),
                  list("native_ms", "docker_ms", 0.90), list("native_ms", "docker_ms", 0.99),
                  list("offset_ns", "offset_x_ns", 0.95), list("neg_base", "neg_x", 0.95),
                  list("small_base", "small_x", 0.95), list("three", "two", 0.95),
                  list("skewed", "large", 0.95), list("native_ms", "skewed", 0.95))
for (o in overheads) {
  f <- fieller(samples[[o[[1]]]], samples[[o[[2]]]], o[[3]])
  smp <- c(o[[1]], o[[2]])
  add("overhead.pct", f$pct, o[[3]], smp)
  add("overhead.df", f$df, o[[3]], smp)
  add("overhead.p", f$p, o[[3]], smp)
  add("overhead.bounded", as.numeric(f$bounded), o[[3]], smp)
  if (f$bounded) {
    add("overhead.lo", f$lo, o[[3]], smp)
    add("overhead.hi", f$hi, o[[3]], smp)
  }
}

sample_json <- vapply(names(samples), function(n)
  sprintf('    "%s": [%s]', n, paste(vapply(samples[[n]], num, ""), collapse = ", ")), "")
cat("{\n")
cat('  "generator": "testdata/make_expected.R",\n')
cat(sprintf('  "r_version": "%s",\n', R.version.string))
cat('  "samples": {\n', paste(sample_json, collapse = ",\n"), "\n  },\n", sep = "")
cat('  "cases": [\n', paste(cases, collapse = ",\n"), "\n  ]\n}\n", sep = "")
