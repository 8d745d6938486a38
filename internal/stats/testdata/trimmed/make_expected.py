#!/usr/bin/env python3
"""make_expected.py: expected.json for TestMedianDroppingExtremes, computed
without boxtax (R is not installed here): drop the run with the lowest and
the one with the highest rank value (the first of a tied value), take the
median (statistics.median) of the rest.

    python3 internal/stats/testdata/trimmed/make_expected.py > internal/stats/testdata/trimmed/expected.json
"""
import json
import statistics

cases = [
    # Kałaska-like: 7 runs' median processing time (ms), ranked by themselves
    {"name": "seven runs ranked by themselves", "xs": [19.76, 21.3, 18.9, 25.1, 20.2, 19.9, 30.4], "by": None},
    # quartiles ranked by another metric: the run medians
    {"name": "q1 ranked by the run medians", "xs": [9.7, 10.4, 8.1, 12.9, 10.0, 9.9, 7.5],
     "by": [19.76, 21.3, 18.9, 25.1, 20.2, 19.9, 30.4]},
    {"name": "three runs", "xs": [3.0, 1.0, 2.0], "by": None},
    {"name": "ties keep one of each extreme", "xs": [5.0, 1.0, 1.0, 9.0, 9.0, 4.0], "by": None},
    {"name": "even count left", "xs": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "by": [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]},
]
out = []
for c in cases:
    xs, by = c["xs"], c["by"] if c["by"] is not None else c["xs"]
    lo = min(range(len(by)), key=lambda i: (by[i], i))
    hi = max(range(len(by)), key=lambda i: (by[i], -i))
    rest = [x for i, x in enumerate(xs) if i not in (lo, hi)]
    out.append({"name": c["name"], "xs": xs, "by": by, "median": statistics.median(rest), "kept": len(rest)})
print(json.dumps(out, indent=1))
