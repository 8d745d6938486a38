#!/usr/bin/env python3
"""rtrounds.py: the rounds of bench/rt-vs-cyclictest.sh, summarised and judged.

Usage: rtrounds.py ROUNDS_TXT [GOAL_US]
ROUNDS_TXT: one line a probe's round, "round probe samples p50_us p99_us
max_us steal_ms", as the script prints them. Probes: cyclictest, rt.none
(rt.periodic with work none: what cyclictest does) and, if measured,
rt.work (rt.periodic with its work per period).

Prints, per probe, the median over rounds of p50, p99 and max beside the
spread of its p99 over the rounds (min, max, interquartile range); then two
comparisons, each as the difference of the medians and round by round:

  like with like   rt.none - cyclictest: what the Go probe adds
  the work         rt.work - rt.none: what the work per period adds

and a verdict line for the first at p99 (goal: GOAL_US, default 20). The
verdict says whether the spread lets the rounds decide: not when a probe's
p99 varies between rounds by more than the goal (interquartile range above
it), nor when the interval that holds the median of the round-by-round
differences with at least 90 % confidence (a sign-test interval: from the
k-th smallest to the k-th largest difference; with 5 rounds the smallest to
the largest, 94 %) reaches past the goal on one side and not on the other.
Then more rounds are needed. A difference below -GOAL_US is not latency the
Go probe adds, and is said as such.
"""
import math
import sys


def quantile(v, q):
    """R's type 7: linear between the order statistics."""
    v = sorted(v)
    h = (len(v) - 1) * q
    lo = math.floor(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])


def median(v):
    return quantile(v, 0.5)


def sign_interval(d, level=0.90):
    """The order statistics d(k), d(n+1-k) that hold the median of the
    differences with probability >= level, or None with too few rounds."""
    n, best = len(d), None
    s = sorted(d)
    for k in range(1, n // 2 + 1):
        outside = 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
        if outside <= 1 - level:
            best = (s[k - 1], s[n - k], 1 - outside)
    return best


def main():
    path = sys.argv[1]
    goal = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    rows = {}
    with open(path) as lines:
        text = lines.read().splitlines()
    for line in text:
        f = line.split()
        if len(f) < 7:
            continue
        rnd, probe = int(f[0]), f[1]
        rows.setdefault(probe, {})[rnd] = {"p50": float(f[3]), "p99": float(f[4]), "max": float(f[5]), "steal": float(f[6])}
    if "cyclictest" not in rows or "rt.none" not in rows:
        sys.exit("rtrounds: no rounds of cyclictest and rt.none to compare")
    probes = [p for p in ("cyclictest", "rt.none", "rt.work") if p in rows]
    n = len(rows["cyclictest"])

    print(f"\nmedians over {n} rounds    p50_us   p99_us    max_us | p99 over the rounds: min_us   max_us   IQR_us")
    med = {}
    for p in probes:
        r = rows[p].values()
        m = {k: median([x[k] for x in r]) for k in ("p50", "p99", "max")}
        med[p] = m
        p99 = [x["p99"] for x in r]
        iqr = quantile(p99, 0.75) - quantile(p99, 0.25)
        m["iqr"] = iqr
        print(f"{p:<22} {m['p50']:8.1f} {m['p99']:8.1f} {m['max']:9.1f} | {min(p99):26.1f} {max(p99):8.1f} {iqr:8.1f}")

    def compare(a, b, title):
        common = sorted(set(rows[a]) & set(rows[b]))
        d = {k: med[a][k] - med[b][k] for k in ("p50", "p99", "max")}
        per = [rows[a][r]["p99"] - rows[b][r]["p99"] for r in common]
        print(f"{title:<22} {d['p50']:+8.1f} {d['p99']:+8.1f} {d['max']:+9.1f} | p99 round by round: " +
              " ".join(f"{x:+.1f}" for x in per))
        return d, per

    print()
    d, per = compare("rt.none", "cyclictest", "rt.none - cyclictest")
    if "rt.work" in rows:
        w, _ = compare("rt.work", "rt.none", "rt.work - rt.none")
        print(f"the work per period adds {w['p50']:+.1f} us at the median and {w['p99']:+.1f} us at p99 (medians over rounds)")

    # The verdict on the like-with-like comparison at p99.
    diff = d["p99"]
    if diff > goal:
        met = "not met"
    elif diff < -goal:
        met = "met: lower than cyclictest (the Go probe adds nothing)"
    else:
        met = "met"
    spread = (f"p99 over the rounds cyclictest {min(x['p99'] for x in rows['cyclictest'].values()):.1f}-"
              f"{max(x['p99'] for x in rows['cyclictest'].values()):.1f} (IQR {med['cyclictest']['iqr']:.1f}), "
              f"rt.none {min(x['p99'] for x in rows['rt.none'].values()):.1f}-"
              f"{max(x['p99'] for x in rows['rt.none'].values()):.1f} (IQR {med['rt.none']['iqr']:.1f})")
    why = []
    wide = [p for p in ("cyclictest", "rt.none") if med[p]["iqr"] > goal]
    if wide:
        why.append("the p99 of " + " and ".join(wide) + f" varies between rounds by more than {goal:g} us (IQR)")
    ci = sign_interval(per)
    if ci is None:
        why.append(f"{len(per)} rounds give no interval for the median difference (5 give 94 %)")
        interval = ""
    else:
        lo, hi, conf = ci
        interval = f"; {conf * 100:.0f} % interval of the median round difference {lo:+.1f} to {hi:+.1f} us"
        if lo <= goal < hi:
            why.append(f"that interval reaches past +{goal:g} us")
    decided = "the spread lets the rounds decide" if not why else "the spread is too large to decide"
    print(f"\nverdict: p99 difference {diff:+.1f} us (goal {goal:g} us): {met}; {decided}; spread: {spread}{interval}")
    if why:
        print(f"spread too large for the comparison to mean anything: {'; '.join(why)}: run more rounds (ROUNDS={max(2 * n, 9)})")


if __name__ == "__main__":
    main()
