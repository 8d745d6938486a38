#!/usr/bin/env python3
"""rtmerge.py: one probe's round of bench/rt-vs-cyclictest.sh from its slices.

Usage: rtmerge.py ct FILE...   cyclictest histograms (-h, 1 us buckets)
       rtmerge.py rt FILE...   rt.periodic worker output (JSON lines)

A round of one probe is measured in slices, interleaved with the other
probe's, so that both meet the same minutes of the hypervisor (issue 31).
This pools the slices' wake-up latencies and prints "samples p50 p99 max"
in microseconds. Both probes' quantiles are taken the same way, cyclictest's:
each latency truncated to whole microseconds (cyclictest's histogram
bucket), the quantile the smallest bucket that holds at least that share of
the samples. Latencies beyond cyclictest's histogram (its overflows) count
as samples above every bucket; a quantile among them is printed as the
maximum.
"""
import base64
import json
import struct
import sys
from collections import Counter


def cyclictest(paths):
    hist, overflow, top = Counter(), 0, 0.0
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("# Max Latencies:"):
                    top = max(top, float(line.split()[3]))
                elif line.startswith("# Histogram Overflows:"):
                    overflow += int(line.split()[3])
                elif not line.startswith("#") and len(line.split()) >= 2:
                    k, c = line.split()[:2]
                    hist[int(k)] += int(c)
    return hist, overflow, top


def rtperiodic(paths):
    hist, top = Counter(), 0.0
    for path in paths:
        with open(path) as f:
            for line in f:
                msg = json.loads(line)
                if msg.get("kind") != "series" or msg.get("series") != "latency_ns":
                    continue
                raw = base64.b64decode(msg["packed"])
                for (ns,) in struct.iter_unpack("<d", raw):
                    hist[int(ns // 1000)] += 1
                    top = max(top, ns / 1000)
    return hist, 0, top


def quantile(hist, overflow, top, q):
    total = sum(hist.values()) + overflow
    seen = 0
    for k in sorted(hist):
        seen += hist[k]
        if seen >= total * q:
            return str(k)
    return f"{top:.0f}"


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    hist, overflow, top = {"ct": cyclictest, "rt": rtperiodic}[kind](paths)
    n = sum(hist.values()) + overflow
    if n == 0:
        sys.exit("rtmerge.py: no samples in " + " ".join(paths))
    print(n, quantile(hist, overflow, top, 0.5), quantile(hist, overflow, top, 0.99), f"{top:.1f}")


if __name__ == "__main__":
    main()
