#!/usr/bin/env python3
"""Tests of rtrounds.py's statistics and verdicts: python3 bench/rtrounds_test.py (would fail
with a verdict that ignored the spread, or an interval at the wrong level)."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtrounds  # noqa: E402


def verdict(rows):
    """rtrounds' output for rows of (round, probe, p99)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for rnd, probe, p99 in rows:
            f.write(f"{rnd} {probe} 60000 40 {p99} 5000 0\n")
    out = io.StringIO()
    sys.argv = ["rtrounds.py", f.name, "20"]
    try:
        with redirect_stdout(out):
            rtrounds.main()
    finally:
        os.unlink(f.name)
    return out.getvalue()


class RoundsTest(unittest.TestCase):
    def test_quantile_is_r_type_7(self):
        self.assertEqual(rtrounds.quantile([1, 2, 3, 4], 0.25), 1.75)  # R: quantile(1:4, .25)
        self.assertEqual(rtrounds.median([5, 1, 3]), 3)

    def test_sign_interval(self):
        # 5 rounds: the smallest to the largest difference, 1 - 2/32.
        lo, hi, conf = rtrounds.sign_interval([3, -1, 7, 2, 0])
        self.assertEqual((lo, hi), (-1, 7))
        self.assertAlmostEqual(conf, 0.9375)
        self.assertIsNone(rtrounds.sign_interval([1, 2, 3]))  # 75 % at best
        lo, hi, _ = rtrounds.sign_interval(list(range(10)))  # 10 rounds: k = 2, 97.9 %
        self.assertEqual((lo, hi), (1, 8))

    def test_decided_and_met(self):
        rows = [(r, "cyclictest", 90 + r) for r in range(1, 6)] + [(r, "rt.none", 95 + r) for r in range(1, 6)]
        out = verdict(rows)
        self.assertIn("verdict: p99 difference +5.0 us (goal 20 us): met; the spread lets the rounds decide", out)
        self.assertNotIn("spread too large", out)

    def test_too_noisy_to_decide(self):
        rows = [(r, "cyclictest", v) for r, v in enumerate([73, 210, 104, 150, 90], 1)]
        rows += [(r, "rt.none", v) for r, v in enumerate([63, 249, 318, 120, 100], 1)]
        out = verdict(rows)
        self.assertIn("the spread is too large to decide", out)
        self.assertIn("run more rounds (ROUNDS=10)", out)

    def test_interval_past_the_goal(self):
        # Steady probes, but the round differences reach past +20 us.
        rows = [(r, "cyclictest", 100) for r in range(1, 6)]
        rows += [(r, "rt.none", v) for r, v in enumerate([95, 100, 105, 110, 125], 1)]
        out = verdict(rows)
        self.assertIn("that interval reaches past +20 us", out)

    def test_not_met_and_lower(self):
        rows = [(r, "cyclictest", 100) for r in range(1, 6)] + [(r, "rt.none", 150) for r in range(1, 6)]
        self.assertIn("+50.0 us (goal 20 us): not met; the spread lets the rounds decide", verdict(rows))
        rows = [(r, "cyclictest", 100) for r in range(1, 6)] + [(r, "rt.none", 60) for r in range(1, 6)]
        self.assertIn("met: lower than cyclictest", verdict(rows))

    def test_work_compared_with_none(self):
        rows = [(r, p, v) for r in range(1, 6) for p, v in (("cyclictest", 100), ("rt.none", 100), ("rt.work", 130))]
        self.assertIn("the work per period adds +0.0 us at the median and +30.0 us at p99", verdict(rows))


if __name__ == "__main__":
    unittest.main()
