#!/usr/bin/env python3
"""slices.py ROOT_PID SECONDS: the busy and idle slices of the busiest thread
under ROOT_PID (the process and its descendants), sampled every millisecond.

A thread is busy while its state in /proc/TID/stat is R (running or
runnable) and idle while it sleeps; a run of samples in one state is one
slice, its length the wall time from its first sample to the next slice's.
(/proc/TID/schedstat's run time cannot tell: for a thread that keeps its
CPU it advances only at the scheduler's tick, 4 ms here.) Sampling every
millisecond misses sleeps shorter than that, so the thread's voluntary
context switches (/proc/TID/status: one per sleep) give the exact count of
cycles: mean cycle = wall time / sleeps, of which the duty is busy. The
duty is the thread's run time from schedstat over the wall time. Prints one
line: the duty, sleeps per second and the mean cycle, and the sampled busy
and idle slices' count, p10, median, p90 and mean in ms. Used by
bench/load-vs-stress-ng.sh."""
import os
import sys
import time


def descendants(root):
    kids = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        kids.setdefault(ppid, []).append(int(p))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def threads(root):
    tids = []
    for p in descendants(root):
        try:
            tids += [f"/proc/{p}/task/{t}/schedstat" for t in os.listdir(f"/proc/{p}/task")]
        except OSError:
            pass
    return tids


def runtime(path):
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except OSError:
        return None


def state(path):
    try:
        with open(path[: -len("schedstat")] + "stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def sleeps(path):
    try:
        with open(path[: -len("schedstat")] + "status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    return int(line.split()[1])
    except OSError:
        return None


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    root, seconds = int(sys.argv[1]), float(sys.argv[2])
    series = {}  # path -> [(wall_ns, run_ns, state)]
    end = time.monotonic() + seconds
    paths, refreshed = [], 0.0
    while time.monotonic() < end:
        now = time.monotonic()
        if now - refreshed > 0.2:
            paths, refreshed = threads(root), now
        t = time.monotonic_ns()
        for p in paths:
            r, st, v = runtime(p), state(p), sleeps(p)
            if r is not None and st is not None and v is not None:
                series.setdefault(p, []).append((t, r, st, v))
        time.sleep(0.001)
    path = max(series, key=lambda p: series[p][-1][1] - series[p][0][1])
    s = series[path]
    busy, idle = [], []
    cur, start = None, None
    for t, _, st, _ in s:
        b = st == "R"
        if b != cur:
            if cur is not None:
                (busy if cur else idle).append((t - start) / 1e6)
            cur, start = b, t
    # the first and last slices are cut by the window: drop them
    busy, idle = busy[1:-1], idle[1:-1]
    duty = (s[-1][1] - s[0][1]) / (s[-1][0] - s[0][0])
    def row(name, xs):
        mean = sum(xs) / len(xs) if xs else float("nan")
        return f"{name} n={len(xs)} p10={pct(xs, .1):.1f} p50={pct(xs, .5):.1f} p90={pct(xs, .9):.1f} mean={mean:.1f} ms"
    wall = (s[-1][0] - s[0][0]) / 1e9
    n = s[-1][3] - s[0][3]
    cycle = 1000 * wall / n if n else float("nan")
    print(f"duty={100 * duty:.1f}% sleeps/s={n / wall:.0f} mean cycle={cycle:.2f} ms (busy {duty * cycle:.2f}, idle {(1 - duty) * cycle:.2f})  sampled: {row('busy', busy)}  {row('idle', idle)}")


if __name__ == "__main__":
    main()
