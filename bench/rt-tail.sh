#!/usr/bin/env bash
# rt-tail.sh: where do the tails of rt.periodic's and cyclictest's wake-up
# latencies come from, and how much of them does each probe add itself?
#
# bench/rt-vs-cyclictest.sh compares the two probes' distributions; on a VM
# their maxima are the host's stalls (milliseconds) and cannot say whether
# the Go probe adds 20 us. This script runs each probe, alternately, under
# the kernel's trace of the measured CPU (scheduler switches and wake-ups, timers)
# and splits every wake-up's latency, matched sample by sample with what the
# probe reported (bench/rttail.py):
#
#   timer   the timer interrupt's lateness (the hypervisor's or the
#           hardware's: no probe can change it)
#   kernel  from the timer's expiry to the probe's thread back in user space
#           (the wake-up; the kernel finishing other work on the CPU; the
#           switch; the way out of clock_nanosleep)
#   probe   the rest: from there to the probe's timestamp - the part a
#           probe adds
#
# and prints p50, p99 and max of each, per round; at the 99th percentile
# the slowest 1 % of the wake-ups split the same way (what the tail is made
# of: the parts' own p99s come from different wake-ups and do not add up);
# what touched the measured CPU while the probe measured (interrupts, IPIs,
# softirqs, its page faults, switches to its own other threads - for the Go
# probe the runtime's: sysmon, idle Ms, GC workers, the netpoller's waiter -
# and to other processes), per second; and what ran in the worst probe parts.
# The probes, like with like (issue 31): cyclictest, rt.none (rt.periodic
# with work none: sleep, read the clock, as cyclictest) and, unless WORK=0,
# rt.work (rt.periodic with calibrated work for OCCUPANCY_PCT of each
# period, default 1). The summary gives each part's p99, median over the
# rounds, for each probe and the differences rt.none - cyclictest (what the
# Go probe adds at p99) and rt.work - rt.none (what the work adds).
# Goal (issues 18, 31): rt.none's probe part within 20 us of cyclictest's, at
# p99 and at the max.
#
#   sudo bash bench/rt-tail.sh                            # 2 rounds of 30 s, 1 ms, prio 49
#   ROUNDS=3 SECONDS_EACH=60 LOAD="stress-ng --cpu 1 --taskset 1" sudo -E bash bench/rt-tail.sh
#
# The trace is the kernel's own (a tracefs instance of this script's, with
# trace_clock mono, read from the measured CPU's trace_pipe by a reader on
# another CPU): perf record on the CPU missed every event of the idle task
# here, i.e. every wake-up of an idle CPU, and no sched_switch out of idle is
# traced on this kernel at all, so the return from clock_nanosleep
# (raw_syscalls:sys_exit) marks the thread's way back. LOAD: a command run in the background during each probe's
# run, the same for both (default none). Needs root, tracefs, cyclictest
# (rt-tests) and python3. Neither probe sets /dev/cpu_dma_latency.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
rt_settings
ROUNDS=${ROUNDS:-2}
OTHER=$(( CPU == 0 ? 1 : 0 ))
LOAD=${LOAD:-}
for t in cyclictest python3 taskset; do
  command -v "$t" >/dev/null || { echo "$t is not installed (Debian: apt-get install rt-tests python3 util-linux)" >&2; exit 2; }
done
tracefs=/sys/kernel/tracing
[ -e "$tracefs/instances" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null || { echo "tracefs is not mounted at $tracefs and cannot be (needs root)" >&2; exit 2; }
inst=$tracefs/instances/boxtax-rt-tail-$$
make -s build
work=$(mktemp -d)
load_pid=
cleanup() {
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null
  [ -d "$inst" ] && { echo 0 > "$inst/tracing_on"; rmdir "$inst"; }
  [ -n "${KEEP:-}" ] && cp -r "$work" "$KEEP"; rm -rf "$work"
}
trap cleanup EXIT
mkdir "$inst"
printf '%x' $((1 << CPU)) > "$inst/tracing_cpumask"
echo mono > "$inst/trace_clock" # CLOCK_MONOTONIC, the probes' clock
# A buffer that holds some seconds of a busy CPU's events, should the reader
# fall behind (a wake-up the reader lost is left out of the split).
echo 16384 > "$inst/buffer_size_kb"
echo 1 > "$inst/options/record-tgid" # which process each thread belongs to
for e in sched/sched_switch sched/sched_wakeup timer/hrtimer_start timer/hrtimer_expire_entry raw_syscalls/sys_exit; do
  echo 1 > "$inst/events/$e/enable"
done
# What else may take the CPU from a thread in user space, where the kernel
# has them: interrupts, IPIs and the probe's own page faults.
for e in irq/irq_handler_entry irq/softirq_entry irq_vectors/local_timer_entry irq_vectors/reschedule_entry \
  irq_vectors/call_function_entry irq_vectors/call_function_single_entry irq_vectors/irq_work_entry exceptions/page_fault_user; do
  [ -e "$inst/events/$e/enable" ] && echo 1 > "$inst/events/$e/enable"
done
# Only clock_nanosleep's returns (x86_64 230, arm64 and riscv64 115, arm 265).
case $(uname -m) in
  x86_64) nr=230 ;; aarch64 | riscv64) nr=115 ;; armv7l | armv6l) nr=265 ;; *) nr= ;;
esac
[ -n "$nr" ] && echo "id == $nr" > "$inst/events/raw_syscalls/sys_exit/filter"

echo "machine: $(nproc) CPUs, $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "each probe: ${SECONDS_EACH} s, period ${INTERVAL_US} us, SCHED_FIFO ${PRIO}, CPU ${CPU}, mlockall; background: ${LOAD:-none}"

# traced NAME CMD...: run CMD with the measured CPU traced, LOAD beside it.
traced() {
  local name=$1 reader
  shift
  echo > "$inst/trace"
  taskset -c "$OTHER" cat "$inst/per_cpu/cpu$CPU/trace_pipe" > "$work/$name.txt" &
  reader=$!
  if [ -n "$LOAD" ]; then
    $LOAD >/dev/null 2>&1 &
    load_pid=$!
  fi
  echo 1 > "$inst/tracing_on"
  "$@"
  echo 0 > "$inst/tracing_on"
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    load_pid=
  fi
  sleep 1 # the reader drains what is left
  kill "$reader" 2>/dev/null || true
  wait "$reader" 2>/dev/null || true
}

freq=$(awk "BEGIN{print 1e6/$INTERVAL_US}")
probes="ct none"
[ "$WORK" = 0 ] || probes="ct none work"
label() { case $1 in ct) echo cyclictest ;; none) echo rt.none ;; work) echo rt.work ;; esac; }
printf '%-6s %-12s %-9s %8s %8s %9s   %s\n' round probe part p50_us p99_us max_us notes
# run_ct, run_rt MODE: one traced run of round $round's probe.
run_ct() {
  # cyclictest -v prints every sample: "thread: index: latency_us".
  traced "ct$round" cyclictest -m -q -v -p "$PRIO" -i "$INTERVAL_US" -D "$SECONDS_EACH" -a "$CPU" --mainaffinity="$OTHER" -t 1 --laptop > "$work/ct$round.out"
  awk -F: 'NF == 3 && $1 ~ /^ *0$/ {print $3 + 0}' "$work/ct$round.out" > "$work/ct$round.lat"
}
run_rt() {
  local mode=$1 w=$1 params
  [[ " $probes " == *" $mode "* ]] || return 0
  [ "$mode" = work ] && w=calibrated
  params=$(printf '{"frequency_hz":%s,"work":"%s","occupancy_pct":%s,"duration":"%ss","priority":%s,"cpu":%s}' \
    "$freq" "$w" "$OCCUPANCY_PCT" "$SECONDS_EACH" "$PRIO" "$CPU")
  traced "$mode$round" ./bin/boxtax worker --workload rt.periodic --params "$params" > "$work/$mode$round.json"
  python3 - "$work/$mode$round.json" > "$work/$mode$round.lat" <<'EOF'
import base64, json, struct, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("kind") == "series" and m.get("series") == "latency_ns":
        raw = base64.b64decode(m["packed"])
        for (v,) in struct.iter_unpack("<d", raw):
            print(v / 1000)
EOF
}
for round in $(seq 1 "$ROUNDS"); do
  # The order alternates, so that neither probe always follows the other.
  if (( round % 2 )); then
    run_ct; run_rt none; run_rt work
  else
    run_rt work; run_rt none; run_ct
  fi
  for probe in $probes; do
    python3 bench/rttail.py "$work/$probe$round.txt" "$work/$probe$round.lat" "$INTERVAL_US" > "$work/$probe$round.parts"
    python3 - "$work/$probe$round.parts" "$round" "$(label "$probe")" <<'EOF' | tee -a "$work/all.txt"
import json, sys
d = json.load(open(sys.argv[1]))
rnd, probe = sys.argv[2], sys.argv[3]
for part in ("reported", "timer", "kernel", "probe"):
    s = d[part]
    note = ""
    if part == "reported":
        note = f"{d['samples']} samples, {d['aligned']} matched to the trace (offset {d['offset']}, {d['probe_negative']} below zero; the reader lost events {d['lost_gaps']} times)"
    if part == "probe":
        note = f"{d['probe_over_20us']} wake-ups with a probe part over 20 us; other threads of its process ran on the CPU {d['own_threads_ran']} times while it measured"
    print("%-6s %-12s %-9s %8.1f %8.1f %9.1f   %s" % (rnd, probe, part, s["p50"], s["p99"], s["max"], note))
t = d["tail"]
print("%-6s %-12s %-9s %8s %8s %9s   the slowest 1 %% (%d wake-ups from %.1f us), medians: timer %.1f, kernel %.1f, probe %.1f us"
      % (rnd, probe, "tail", "", "", "", t["wakeups"], t["from_us"], t["timer"], t["kernel"], t["probe"]))
secs = max(d["seconds"], 1e-9)
seen = ", ".join(f"{k} {v / secs:.1f}/s" for k, v in sorted(d["touched"].items(), key=lambda kv: -kv[1])) or "nothing traced"
print("%-6s %-12s %-9s %8s %8s %9s   on the CPU while measuring (%.0f s): %s" % (rnd, probe, "touched", "", "", "", secs, seen))
for w in d["worst"]:
    what = ", ".join(f"{k} x{v}" for k, v in w["events"].items()) or "no traced event (the vCPU itself, or an untraced interrupt)"
    print("%-6s %-12s %-9s %8s %8s %9.1f   in it: %s" % (rnd, probe, "worst", "", "", w["probe_us"], what))
EOF
  done
done

echo
# Per part, the median over the rounds of each probe's p99, and what the Go
# probe adds at p99: rt.none - cyclictest (like with like) and, with the
# work, rt.work - rt.none.
awk -v goal=20 '$3 ~ /^(reported|timer|kernel|probe)$/ && $4 != "" { k = $2 SUBSEP $3; n[k]++; p99[k, n[k]] = $5; mx[k, n[k]] = $6; probes[$2] = 1 }
  function median(a, k, c,   i, j, t, v) { for (i = 1; i <= c; i++) v[i] = a[k, i]
    for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j] < v[j-1]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
    return (c % 2) ? v[(c+1)/2] : (v[c/2] + v[c/2+1]) / 2 }
  function m(a, probe, part) { return median(a, probe SUBSEP part, n[probe SUBSEP part]) }
  END {
    c = n["cyclictest" SUBSEP "probe"]
    work = ("rt.work" in probes)
    printf "p99 by part, median over %d rounds (us)   cyclictest  rt.none  rt.none-ct%s\n", c, work ? "  rt.work  rt.work-rt.none" : ""
    split("reported timer kernel probe", parts, " ")
    for (i = 1; i <= 4; i++) {
      p = parts[i]
      printf "%-40s %10.1f %8.1f %+11.1f", p, m(p99, "cyclictest", p), m(p99, "rt.none", p), m(p99, "rt.none", p) - m(p99, "cyclictest", p)
      if (work) printf " %8.1f %+16.1f", m(p99, "rt.work", p), m(p99, "rt.work", p) - m(p99, "rt.none", p)
      printf "\n"
    }
    d99 = m(p99, "rt.none", "probe") - m(p99, "cyclictest", "probe")
    dmx = m(mx, "rt.none", "probe") - m(mx, "cyclictest", "probe")
    printf "the probe part, rt.none - cyclictest: p99 %+.1f us, max %+.1f us (medians over %d rounds)\n", d99, dmx, c
    printf "goal: the part the probe adds within %d us of cyclictest'"'"'s at p99 (%s) and max (%s)\n", goal, (d99 <= goal) ? "met" : "not met", (dmx <= goal) ? "met" : "not met"
  }' "$work/all.txt"
