#!/usr/bin/env python3
"""Tests of rtsteal.py: python3 bench/rtsteal_test.py (would fail with the
t quantile at the wrong level, a fit that ignored the steal, or slices
paired out of order)."""
import base64
import io
import json
import os
import struct
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rtsteal  # noqa: E402


def latencies(p99_us, n=1000):
    """n latencies in us whose p99 (as cyclictest takes it) is p99_us:
    98.5 % at 30 us, the rest at p99_us."""
    fast = int(n * 0.985)
    return [30] * fast + [p99_us] * (n - fast)


def write_ct(path, lat):
    """A cyclictest histogram (-h) of the latencies."""
    hist = {}
    for v in lat:
        hist[int(v)] = hist.get(int(v), 0) + 1
    with open(path, "w") as f:
        f.write("# Histogram\n")
        for k in sorted(hist):
            f.write(f"{k:06d} {hist[k]:06d}\n")
        f.write(f"# Max Latencies: {max(lat):05d}\n# Histogram Overflows: 00000\n")


def write_rt(path, lat):
    """rt.periodic's worker output with the latencies as its series."""
    packed = base64.b64encode(b"".join(struct.pack("<d", v * 1000.0) for v in lat)).decode()
    with open(path, "w") as f:
        f.write(json.dumps({"kind": "series", "series": "latency_ns", "packed": packed}) + "\n")


def workdir(offset_us, rounds=3, slices=6):
    """Slices in which each probe's p99 is 50 + 2.5 us per ms of the steal
    it met, rt.none's offset_us above cyclictest's at equal steal; the
    steal of the two probes' slices differs, so that a comparison that
    ignored it would be off."""
    d = tempfile.mkdtemp()
    for r in range(1, rounds + 1):
        steal = {"cyclictest": [], "rt.none": []}
        for s in range(1, slices + 1):
            ct_steal = 20 * ((r + s) % 4)
            rt_steal = 20 * ((r * s) % 5)
            steal["cyclictest"].append(ct_steal)
            steal["rt.none"].append(rt_steal)
            write_ct(os.path.join(d, f"cyclictest.{r}.{s}"), latencies(round(50 + 2.5 * ct_steal)))
            write_rt(os.path.join(d, f"rt.none.{r}.{s}"), latencies(round(50 + 2.5 * rt_steal + offset_us)))
        for name, v in steal.items():
            with open(os.path.join(d, f"{name}.{r}.steal"), "w") as f:
                f.write("\n".join(str(x) for x in v) + "\n")
    return d


def run(d, rounds=3, slices=6, goal=20):
    out = io.StringIO()
    sys.argv = ["rtsteal.py", d, str(rounds), str(slices), str(goal)]
    with redirect_stdout(out):
        rtsteal.main()
    return out.getvalue()


class StealTest(unittest.TestCase):
    def test_t_quantile(self):
        for df, want in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (27, 2.0518), (1000, 1.9623)):
            self.assertAlmostEqual(rtsteal.student_t_975(df), want, places=3)

    def test_fit_is_exact_on_a_line(self):
        a, b, se, df = rtsteal.fit([0, 10, 20, 30], [5, 30, 55, 80])
        self.assertAlmostEqual(a, 5)
        self.assertAlmostEqual(b, 2.5)
        self.assertAlmostEqual(se, 0)
        self.assertEqual(df, 2)

    def test_small_offset_is_met(self):
        out = run(workdir(5))
        self.assertIn("18 slice pairs", out)
        self.assertIn("rt.none - cyclictest p99 +5.0 us", out)
        self.assertIn("verdict at equal steal: met", out)

    def test_large_offset_is_not_met(self):
        out = run(workdir(40))
        self.assertIn("rt.none - cyclictest p99 +40.0 us", out)
        self.assertIn("verdict at equal steal: not met", out)

    def test_missing_slice_is_left_out(self):
        d = workdir(5)
        os.unlink(os.path.join(d, "rt.none.2.3"))
        self.assertIn("17 slice pairs", run(d))


if __name__ == "__main__":
    unittest.main()
