# make_expected.R writes the datasets of linear-model tests (CSV) and what R
# says about them (expected.json): summary(manova(...)) with each of the four
# tests, summary(aov(...)) for every response, and summary(lm(...))'s
# coefficients. lm_test.go compares package stats against it; Go needs no R.
#
# Run from internal/stats:   Rscript testdata/lm/make_expected.R
# Needs only base R. Factors are read as R reads them (read.csv with
# stringsAsFactors = TRUE): levels sorted, the first the reference of the
# treatment contrasts. Values are written with 17 significant digits.

set.seed(20260521)
dir <- "testdata/lm"
num <- function(x) if (is.na(x)) "null" else sprintf("%.17g", x)
str <- function(x) sprintf('"%s"', x)

# thesis_like: the 2x2x2 design of seed 002 with its four responses in ns,
# 30 slices a cell, correlated noise, effects of the thesis's sizes.
thesis_like <- function() {
  g <- expand.grid(rep = 1:30, deployment = c("native", "docker"), kernel = c("vanilla", "rt"), load = c("none", "cpu"))
  n <- nrow(g)
  d <- g$deployment == "docker"; k <- g$kernel == "rt"; l <- g$load == "cpu"
  common <- rnorm(n)
  data.frame(
    deployment = g$deployment, kernel = g$kernel, load = g$load,
    oh1 = round(24675 + 119 * d + 7358 * k - 9644 * l - 118 * d * k + 5000 * rnorm(n) + 800 * common),
    work = round(8034093 + 2121 * d - 48434 * k + 291274 * l + 4689 * d * k + 90000 * rnorm(n) + 20000 * common),
    oh2 = round(38997 + 987 * d - 13056 * k - 6159 * l - 877 * d * k + 9000 * rnorm(n)),
    sleep = round(2155372 - 77961 * d - 414775 * k + 156070 * l + 71039 * d * k + 150000 * rnorm(n) - 30000 * common))
}

# unbalanced: a three-level environment by load, unequal cells, 3 responses.
unbalanced <- function() {
  envs <- c("native", "docker-bridge", "docker-host")
  rows <- list()
  sizes <- matrix(c(5, 9, 12, 7, 20, 6), nrow = 3)
  for (i in 1:3) for (j in 1:2) {
    m <- sizes[i, j]
    rows[[length(rows) + 1]] <- data.frame(env = envs[i], load = c("none", "cpu")[j],
      lat = 20 + 3 * i + 10 * (j == 2) + 2 * i * (j == 2) + rnorm(m, 0, 4),
      work = 1000 + 15 * (i == 3) + rnorm(m, 0, 10),
      sleep = 500 - 8 * i + rnorm(m, 0, 6))
  }
  do.call(rbind, rows)
}

# missing_cell: a 3x2 design with the cell (a3, b2) empty, two responses:
# a:b has one column fewer than its contrasts, and R drops it.
missing_cell <- function() {
  g <- expand.grid(rep = 1:6, a = c("a1", "a2", "a3"), b = c("b1", "b2"))
  g <- g[!(g$a == "a3" & g$b == "b2"), ]
  n <- nrow(g)
  data.frame(a = g$a, b = g$b,
    y1 = 10 + 2 * (g$a == "a2") - 3 * (g$a == "a3") + 4 * (g$b == "b2") + rnorm(n),
    y2 = 5 + 1 * (g$b == "b2") + 1.5 * (g$a == "a2") * (g$b == "b2") + rnorm(n, 0, 0.5))
}

# runs: the run-level view, 3 runs a cell of a 2x2 design, 4 responses.
runs <- function() {
  g <- expand.grid(run = 1:3, env = c("native", "docker"), load = c("none", "cpu"))
  n <- nrow(g)
  data.frame(env = g$env, load = g$load,
    oh1 = 25000 + 300 * (g$env == "docker") - 9000 * (g$load == "cpu") + rnorm(n, 0, 400),
    work = 8.0e6 + 3e5 * (g$load == "cpu") + rnorm(n, 0, 2e4),
    oh2 = 39000 + 1000 * (g$env == "docker") + rnorm(n, 0, 800),
    sleep = 2.1e6 - 8e4 * (g$env == "docker") + 1.5e5 * (g$load == "cpu") + rnorm(n, 0, 3e4))
}

datasets <- list(thesis_like = thesis_like(), unbalanced = unbalanced(), missing_cell = missing_cell(), runs = runs())
for (name in names(datasets)) write.csv(datasets[[name]], file.path(dir, paste0(name, ".csv")), row.names = FALSE, quote = FALSE)

cases <- list(
  list("thesis_like", c("oh1", "work", "oh2", "sleep"), "deployment + kernel + load + deployment:kernel"),
  list("thesis_like", c("oh1", "work", "oh2", "sleep"), "deployment * kernel * load"),
  list("thesis_like", c("work"), "load + kernel"),
  list("unbalanced", c("lat", "work", "sleep"), "env * load"),
  list("unbalanced", c("lat", "work", "sleep"), "load + env"),
  list("unbalanced", c("lat", "sleep"), "env + env:load"),
  list("missing_cell", c("y1", "y2"), "a * b"),
  list("missing_cell", c("y1", "y2"), "b + a"),
  list("runs", c("oh1", "work", "oh2", "sleep"), "env * load")
)

rows <- function(recs) paste0("[", paste(recs, collapse = ", "), "]")
out <- character(0)
for (cs in cases) {
  d <- read.csv(file.path(dir, paste0(cs[[1]], ".csv")), stringsAsFactors = TRUE)
  resp <- cs[[2]]
  f <- as.formula(paste0("cbind(", paste(resp, collapse = ", "), ") ~ ", cs[[3]]))
  fit <- lm(f, data = d)
  parts <- c(sprintf('"data": "%s.csv"', cs[[1]]), sprintf('"responses": [%s]', paste(str(resp), collapse = ", ")),
             sprintf('"model": "%s"', cs[[3]]), sprintf('"n": %d', nrow(d)), sprintf('"residual_df": %d', fit$df.residual))
  if (length(resp) > 1) {
    mv <- character(0)
    for (test in c("Pillai", "Wilks", "Hotelling-Lawley", "Roy")) {
      st <- summary(manova(f, data = d), test = test)$stats
      recs <- character(0)
      for (i in seq_len(nrow(st) - 1)) {
        recs <- c(recs, sprintf('{"term": "%s", "df": %s, "stat": %s, "approx_F": %s, "num_df": %s, "den_df": %s, "p": %s}',
          trimws(rownames(st)[i]), num(st[i, 1]), num(st[i, 2]), num(st[i, 3]), num(st[i, 4]), num(st[i, 5]), num(st[i, 6])))
      }
      mv <- c(mv, sprintf('"%s": %s', test, rows(recs)))
    }
    parts <- c(parts, sprintf('"manova": {%s}', paste(mv, collapse = ", ")))
  }
  av <- character(0)
  co <- character(0)
  cf <- as.matrix(coef(fit))
  for (j in seq_along(resp)) {
    fj <- as.formula(paste0(resp[j], " ~ ", cs[[3]]))
    a <- summary(aov(fj, data = d))[[1]]
    recs <- character(0)
    for (i in seq_len(nrow(a))) {
      recs <- c(recs, sprintf('{"term": "%s", "df": %s, "sum_sq": %s, "mean_sq": %s, "F": %s, "p": %s}',
        trimws(rownames(a)[i]), num(a[i, 1]), num(a[i, 2]), num(a[i, 3]), num(a[i, 4]), num(a[i, 5])))
    }
    av <- c(av, sprintf('"%s": %s', resp[j], rows(recs)))
    s <- summary(lm(fj, data = d))$coefficients
    recs <- character(0)
    for (name in rownames(cf)) {
      est <- cf[name, j]
      if (name %in% rownames(s)) {
        recs <- c(recs, sprintf('{"name": "%s", "estimate": %s, "std_error": %s, "t": %s, "p": %s}',
          name, num(est), num(s[name, 2]), num(s[name, 3]), num(s[name, 4])))
      } else {
        recs <- c(recs, sprintf('{"name": "%s", "estimate": null}', name))
      }
    }
    co <- c(co, sprintf('"%s": %s', resp[j], rows(recs)))
  }
  parts <- c(parts, sprintf('"anova": {%s}', paste(av, collapse = ", ")), sprintf('"coefficients": {%s}', paste(co, collapse = ", ")))
  out <- c(out, paste0("    {", paste(parts, collapse = ",\n     "), "}"))
}
cat(sprintf('{\n  "r_version": "%s",\n  "cases": [\n%s\n  ]\n}\n', R.version.string, paste(out, collapse = ",\n")),
    file = file.path(dir, "expected.json"))
