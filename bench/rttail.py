#!/usr/bin/env python3
"""rttail.py: where a periodic real-time probe's wake-up latency comes from.

Used by bench/rt-tail.sh. Reads the kernel's trace of the measured CPU
(ftrace's text from per_cpu/cpuN/trace_pipe, trace_clock mono, so that its
times are CLOCK_MONOTONIC as the probes' are: hrtimer_start,
hrtimer_expire_entry, sched_wakeup, sched_switch and raw_syscalls sys_exit)
and the probe's own latency of every wake-up, in order, and splits each
wake-up's latency in three:

  timer    the timer interrupt's lateness: when the kernel ran the probe's
           expired timer minus when it should have expired (the hypervisor's
           timer delivery on a VM, the hardware's elsewhere; no probe can
           change it)
  kernel   from that expiry to the probe's thread leaving clock_nanosleep
           for user space: the wake-up, the kernel finishing what it was
           doing on the CPU (other tasks' non-preemptible kernel work,
           interrupts, the probe's own other threads if any ran there), the
           switch and the way out
  probe    the rest of what the probe reported: from the return to user
           space to its timestamp. This is the part a probe adds.

Usage: rttail.py TRACE_TXT LATENCIES_TXT PERIOD_US
LATENCIES_TXT: one latency in microseconds a line, in the order measured.
Prints one line of JSON: the probe's thread, counts, and p50/p99/max of each
part and of the reported latency.
"""
import json
import re
import sys

# "  comm-tid  (tgid) [cpu] flags  seconds: event: fields" (record-tgid on)
LINE = re.compile(r"\s*(.*)-(\d+)\s+\(\s*([\d-]+)\)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s+(.*)")


def pct(values, p):
    v = sorted(values)
    if not v:
        return None
    return v[min(len(v) - 1, int(p * len(v)))]


def summary(values):
    if not values:
        return {}
    return {"p50": round(pct(values, 0.5), 1), "p99": round(pct(values, 0.99), 1), "max": round(max(values), 1)}


def main():
    trace, lats, period_us = sys.argv[1], sys.argv[2], float(sys.argv[3])
    events = []
    with open(trace) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                comm, tid, tgid, _cpu, ts, ev, rest = m.groups()
                events.append((comm.strip(), tid, tgid, float(ts), ev, rest))
    # The probe's measuring thread: the one woken at a real-time priority
    # (kernel prio below 100) most often.
    count = {}
    for comm, tid, tgid, ts, ev, rest in events:
        if ev == "sched_wakeup":
            m = re.search(r"comm=(.*?) pid=(\d+) prio=(\d+)", rest)
            if m and int(m.group(3)) < 100:
                count[(m.group(1), m.group(2))] = count.get((m.group(1), m.group(2)), 0) + 1
    if not count:
        sys.exit("rttail: no real-time thread was woken on the traced CPU")
    (rtcomm, rt), _ = max(count.items(), key=lambda kv: kv[1])
    process = next(tgid for comm, tid, tgid, ts, ev, rest in events if tid == rt)

    # Each wake-up: the probe's timer armed -> expired -> back to user space.
    armed, pending, wakeups = {}, None, []
    own_ran = []  # when another thread of the probe's process left the CPU
    for comm, tid, tgid, ts, ev, rest in events:
        if ev == "hrtimer_start" and tid == rt and "function=hrtimer_wakeup" in rest:
            addr = re.search(r"hrtimer=(\S+)", rest).group(1)
            armed[addr] = int(re.search(r" expires=(\d+)", rest).group(1))
        elif ev == "hrtimer_expire_entry" and "function=hrtimer_wakeup" in rest:
            addr = re.search(r"hrtimer=(\S+)", rest).group(1)
            if addr in armed:
                now = int(re.search(r"now=(\d+)", rest).group(1))
                expires = armed.pop(addr)
                pending = (expires, now)
        elif ev == "sys_exit" and tid == rt and pending is not None:
            expires, now = pending
            back = ts * 1e9  # the trace's clock is CLOCK_MONOTONIC (mono)
            wakeups.append(((now - expires) / 1000.0, (back - now) / 1000.0, (back - expires) / 1000.0, back))
            pending = None
        elif ev == "sched_switch" and tgid == process and tid != rt:
            own_ran.append(ts)  # the event is the leaving thread's

    reported = [float(x) for x in open(lats).read().split()]
    if not reported or not wakeups:
        sys.exit("rttail: no wake-ups to compare")
    # Align the probe's samples with the traced wake-ups: the trace may hold
    # a wake-up or two more (a sleep before measuring, one after). Take the
    # offset whose probe parts are the tightest: aligned, nine in ten are a
    # few microseconds (and none is negative); one off, each part is the
    # difference of two wake-ups' latencies, tens of microseconds either way
    # (around the same median, so the median cannot tell).
    best = None
    for off in range(-3, 4):
        parts = [reported[i] - wakeups[i + off][2] for i in range(len(reported)) if 0 <= i + off < len(wakeups)]
        if len(parts) < len(reported) * 0.9:
            continue
        spread = pct([abs(p) for p in parts], 0.9)
        if best is None or spread < best[0]:
            best = (spread, off, parts)
    if best is None:
        sys.exit(f"rttail: {len(reported)} samples and {len(wakeups)} traced wake-ups do not line up")
    _, off, probe = best
    # While it measured: from the first aligned wake-up to the last.
    matched = [wakeups[i + off] for i in range(len(reported)) if 0 <= i + off < len(wakeups)]
    first, last = matched[0][3] / 1e9, matched[-1][3] / 1e9
    own = sum(1 for t in own_ran if first <= t <= last)
    # What ran on the CPU in the worst probe parts, from the thread's return
    # to user space to its timestamp: the trace's events of that window.
    worst = []
    for part, w in sorted(zip(probe, matched), key=lambda pw: -pw[0])[:3]:
        t0, t1 = w[3] / 1e9, w[3] / 1e9 + part / 1e6
        seen = {}
        for comm, tid, tgid, ts, ev, rest in events:
            if t0 < ts <= t1:
                what = re.search(r"function=(\w+)", rest) if ev.startswith("hrtimer") else None
                key = f"{ev}({what.group(1) if what else comm})"
                seen[key] = seen.get(key, 0) + 1
        worst.append({"probe_us": round(part, 1), "events": seen})
    timer = [w[0] for w in wakeups]
    kernel = [w[1] for w in wakeups]
    out = {
        "thread": f"{rtcomm}/{rt}", "samples": len(reported), "traced_wakeups": len(wakeups), "aligned": len(probe),
        "offset": off, "own_threads_ran": own, "worst": worst,
        "reported": summary(reported), "timer": summary(timer), "kernel": summary(kernel), "probe": summary(probe),
        # The trace prints microseconds: a part is exact to about one.
        "probe_over_20us": sum(1 for p in probe if p > 20), "period_us": period_us,
        # Aligned, no part is below zero by more than the trace's rounding.
        "probe_negative": sum(1 for p in probe if p < -2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
