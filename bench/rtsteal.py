#!/usr/bin/env python3
"""rtsteal.py: the p99 difference of two probes at equal steal, from their slices.

Usage: rtsteal.py WORKDIR ROUNDS SLICES [GOAL_US]

WORKDIR holds bench/rt-vs-cyclictest.sh's slices of one run:
cyclictest.R.S (cyclictest's histogram), rt.none.R.S (rt.periodic's
output) and, per probe and round, NAME.R.steal (the ms the hypervisor took
from the measured CPU during each slice, a line a slice, in slice order).

Why: on a VM the p99 of a 1 ms period is set by steal. When the hypervisor
takes about 1 % of the vCPU, about 1 % of the wake-ups wait for it, so each
slice's p99 rises by about 2.5 us for every ms of steal in 10 s (measured
here, both probes alike), and steal moves by hundreds of ms between slices
a minute apart. Rounds of pooled slices then differ by hundreds of us
whichever probe runs (docs/rt.md), and no number of rounds decides a 20 us
question. The two probes' slices alternate, so each slice of rt.none has a
partner slice of cyclictest seconds away; what differs within a pair is
the probe and the steal each met. The paired differences of their p99,
regressed on the difference of their steal (ordinary least squares), give
at steal difference 0 the difference the probe makes: the intercept, with
its 95 % t interval on n-2 degrees of freedom. The same model for both
probes, every slice kept; nothing is left out for being slow.

Prints the slice count, the slope (us of p99 per ms of steal), the
difference at equal steal with its interval, the plain median of the paired
differences, and a verdict line: "met" when the interval's upper end is at
most GOAL_US (default 20): the Go probe is shown to add at most GOAL_US;
"not met" when its lower end is above GOAL_US; else undecided.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtmerge  # noqa: E402


def p99(kind, path):
    """A slice's p99 in us, taken as cyclictest takes it (rtmerge); None
    for a slice that is missing or holds no sample."""
    if not os.path.exists(path):
        return None
    hist, overflow, top = {"ct": rtmerge.cyclictest, "rt": rtmerge.rtperiodic}[kind]([path])
    if sum(hist.values()) + overflow == 0:
        return None
    return float(rtmerge.quantile(hist, overflow, top, 0.99))


def student_t_975(df):
    """The 0.975 quantile of Student's t (df >= 1), by bisection on the
    regularized incomplete beta function's continued fraction."""
    def cdf(t):
        x = df / (df + t * t)
        return 1 - 0.5 * betainc(df / 2, 0.5, x)
    lo, hi = 0.0, 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf(mid) < 0.975:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b) (Numerical
    Recipes' continued fraction, Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(math.log(x) * a + math.log(1 - x) * b + lbeta)
    if x > (a + 1) / (a + b + 2):
        return 1 - betainc(b, a, 1 - x)
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + num * d
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + num / c
        c = c if abs(c) > 1e-300 else 1e-300
        f *= c * d
        if abs(1 - c * d) < 1e-15:
            break
    return front * (f - 1) / a


def fit(x, y):
    """Least squares y = a + b x: a, b and the standard error of a; None
    with fewer than 3 points or no spread in x."""
    n = len(x)
    if n < 3:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((v - mx) ** 2 for v in x)
    if sxx == 0:
        b = 0.0
        a = my
        res = [v - my for v in y]
        se = math.sqrt(sum(r * r for r in res) / (n - 1) / n)
        return a, b, se, n - 1
    b = sum((u - mx) * (v - my) for u, v in zip(x, y)) / sxx
    a = my - b * mx
    res = [v - (a + b * u) for u, v in zip(x, y)]
    s2 = sum(r * r for r in res) / (n - 2)
    return a, b, math.sqrt(s2 * (1 / n + mx * mx / sxx)), n - 2


def pairs(work, rounds, slices):
    """(steal difference, p99 difference) of rt.none - cyclictest, a pair a
    slice that both probes measured."""
    out = []
    for r in range(1, rounds + 1):
        steal = {}
        for name in ("cyclictest", "rt.none"):
            with open(os.path.join(work, f"{name}.{r}.steal")) as f:
                steal[name] = [int(v) for v in f.read().split()]
        for s in range(1, slices + 1):
            ct = p99("ct", os.path.join(work, f"cyclictest.{r}.{s}"))
            rt = p99("rt", os.path.join(work, f"rt.none.{r}.{s}"))
            if ct is None or rt is None or s > len(steal["cyclictest"]) or s > len(steal["rt.none"]):
                continue
            out.append((steal["rt.none"][s - 1] - steal["cyclictest"][s - 1], rt - ct))
    return out


def main():
    work, rounds, slices = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    goal = float(sys.argv[4]) if len(sys.argv) > 4 else 20.0
    ps = pairs(work, rounds, slices)
    f = fit([p[0] for p in ps], [p[1] for p in ps])
    if f is None:
        print(f"at equal steal: too few slice pairs ({len(ps)}) to fit")
        return
    a, b, se, df = f
    t = student_t_975(df)
    lo, hi = a - t * se, a + t * se
    diffs = sorted(p[1] for p in ps)
    med = diffs[len(diffs) // 2] if len(diffs) % 2 else (diffs[len(diffs) // 2 - 1] + diffs[len(diffs) // 2]) / 2
    if hi <= goal:
        verdict = f"met: the Go probe adds at most {goal:g} us at p99"
    elif lo > goal:
        verdict = f"not met: the Go probe adds more than {goal:g} us at p99"
    else:
        verdict = "undecided: the interval holds the goal; more rounds"
    print(f"at equal steal ({len(ps)} slice pairs; p99 rises {b:.2f} us per ms of steal): "
          f"rt.none - cyclictest p99 {a:+.1f} us [{lo:+.1f}, {hi:+.1f}] (95 %); median paired difference {med:+.1f} us")
    print(f"verdict at equal steal: {verdict}")


if __name__ == "__main__":
    main()
