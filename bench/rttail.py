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

At the 99th percentile: the parts' own p99s do not add up to the reported
p99 (each part's slowest wake-ups are others), so the wake-ups at or above
the reported p99 (the slowest 1 %) are split too: the median of each part
over them says what the tail is made of.

What touched the CPU while the probe measured (from its first matched
wake-up to its last), counted by kind: interrupts, IPIs and softirqs, the
probe's own page faults, switches to other threads of the probe's process
(for the Go probe: sysmon, idle Ms, the template thread, GC workers, the
netpoller's waiter - all kept off the CPU by rt.periodic), and switches to
other processes' threads.

Usage: rttail.py TRACE_TXT LATENCIES_TXT PERIOD_US
LATENCIES_TXT: one latency in microseconds a line, in the order measured.
Prints one line of JSON: the probe's thread, counts, and p50/p99/max of each
part and of the reported latency, the tail's composition and what touched
the CPU.
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
    events, lost = [], 0
    with open(trace) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                comm, tid, tgid, _cpu, ts, ev, rest = m.groups()
                events.append((comm.strip(), tid, tgid, float(ts), ev, rest))
            elif "[LOST" in line:  # the reader fell behind: the events between are gone
                lost += 1
                events.append(("", "", "", events[-1][3] if events else 0.0, "lost", line))
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
    nexttgid = {tid: tgid for comm, tid, tgid, ts, ev, rest in events}
    process = next(tgid for comm, tid, tgid, ts, ev, rest in events if tid == rt)

    # Each wake-up: the probe's timer armed -> expired -> back to user space.
    armed, pending, wakeups = {}, None, []
    own_ran = []  # when another thread of the probe's process left the CPU
    for comm, tid, tgid, ts, ev, rest in events:
        if ev == "lost":  # a timer armed before may have expired unseen
            armed, pending = {}, None
        elif ev == "hrtimer_start" and tid == rt and "function=hrtimer_wakeup" in rest:
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
            wakeups.append(((now - expires) / 1000.0, (back - now) / 1000.0, (back - expires) / 1000.0, back, expires))
            pending = None
        elif ev == "sched_switch" and tgid == process and tid != rt:
            own_ran.append(ts)  # the event is the leaving thread's

    reported = [float(x) for x in open(lats).read().split()]
    if not reported or not wakeups:
        sys.exit("rttail: no wake-ups to compare")
    # Align the probe's samples with the traced wake-ups by their slot on
    # the grid of periods: a traced wake-up's slot is its timer's expiry
    # (the probe's deadline) counted in periods from the first; a sample's
    # is the one after the sample before, or a later one when that sample
    # was more than a period late and the probe skipped slots (cyclictest
    # and work none skip every slot whose start has passed; the task with
    # work only those past by a whole period after its end): of those, the
    # traced one whose latency is closest to the sample's. So a wake-up the
    # trace lost (its buffer overran) costs that wake-up, not the alignment
    # of all that follow. The trace may hold a wake-up or two more at the
    # start (a sleep before measuring): take the first slot whose probe
    # parts are the tightest. Aligned, nine in ten are a few microseconds
    # (and none is negative); one off, each part is the difference of two
    # wake-ups' latencies, tens of microseconds either way (around the same
    # median, so the median cannot tell).
    # Only wake-ups on the probe's grid count: the thread may have slept on
    # other timers before it measured (the runtime's futex waits).
    period_ns = period_us * 1000
    ref = wakeups[len(wakeups) // 2][4]
    wakeups = [w for w in wakeups if abs((w[4] - ref + period_ns / 2) % period_ns - period_ns / 2) < 1000]
    by_slot = {}
    for w in wakeups:
        by_slot.setdefault(round((w[4] - wakeups[0][4]) / period_ns), w)

    def align(first_slot):
        pairs, slot = [], first_slot
        for i, lat in enumerate(reported):
            if i > 0:
                late = max(0, int((reported[i - 1] * 1000 - 1) // period_ns))
                here = [c for c in range(slot + 1, slot + 2 + late) if c in by_slot]
                slot = min(here, key=lambda c: abs(lat - by_slot[c][2])) if here else slot + 1 + late
            if slot in by_slot:
                pairs.append((i, by_slot[slot]))
        return pairs

    best = None
    for off in range(-3, 4):
        pairs = align(off)
        if len(pairs) < len(reported) * 0.5:
            continue
        parts = [reported[i] - w[2] for i, w in pairs]
        spread = pct([abs(p) for p in parts], 0.9)
        if best is None or spread < best[0]:
            best = (spread, off, parts, pairs)
    if best is None:
        sys.exit(f"rttail: {len(reported)} samples and {len(wakeups)} traced wake-ups do not line up")
    _, off, probe, pairs = best
    matched = [w for i, w in pairs]
    # While it measured: from the first aligned wake-up to the last.
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
    # The parts of the matched wake-ups (the thread may have slept on
    # timers before it measured, e.g. futex waits of the runtime's).
    timer = [w[0] for w in matched]
    kernel = [w[1] for w in matched]
    # The slowest 1 % of the matched wake-ups, by what the probe reported.
    rows = [(reported[i], w[0], w[1], probe[k]) for k, (i, w) in enumerate(pairs)]
    cut = pct([r[0] for r in rows], 0.99)
    top = [r for r in rows if r[0] >= cut]
    tail = {"wakeups": len(top), "from_us": round(cut, 1)}
    for j, part in ((1, "timer"), (2, "kernel"), (3, "probe")):
        tail[part] = round(pct([r[j] for r in top], 0.5), 1)
    # What touched the CPU while it measured.
    touched = {}
    for comm, tid, tgid, ts, ev, rest in events:
        if not first <= ts <= last:
            continue
        key = None
        if ev in ("irq_handler_entry",):
            m = re.search(r"name=(\S+)", rest)
            key = "irq " + (m.group(1) if m else "?")
        elif ev == "softirq_entry":
            m = re.search(r"action=(\w+)", rest)
            key = "softirq " + (m.group(1) if m else "?")
        elif ev.endswith("_entry") and ev not in ("hrtimer_expire_entry",):
            key = ev[: -len("_entry")]  # local_timer, reschedule, call_function...
        elif ev == "page_fault_user" and tgid == process:
            key = "the probe's page faults"
        elif ev == "sched_switch":
            m = re.search(r"next_comm=(.*?) next_pid=(\d+)", rest)
            if m and m.group(2) not in (rt, "0"):
                key = "switches to its own other threads" if nexttgid.get(m.group(2)) == process else "switches to other processes"
        if key:
            touched[key] = touched.get(key, 0) + 1
    out = {
        "thread": f"{rtcomm}/{rt}", "samples": len(reported), "traced_wakeups": len(wakeups), "aligned": len(probe),
        "offset": off, "lost_gaps": lost, "own_threads_ran": own, "worst": worst, "tail": tail,
        "seconds": round(last - first, 1), "touched": touched,
        "reported": summary(reported), "timer": summary(timer), "kernel": summary(kernel), "probe": summary(probe),
        # The trace prints microseconds: a part is exact to about one.
        "probe_over_20us": sum(1 for p in probe if p > 20), "period_us": period_us,
        # Aligned, no part is below zero by more than the trace's rounding.
        "probe_negative": sum(1 for p in probe if p < -2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
