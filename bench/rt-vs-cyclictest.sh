#!/usr/bin/env bash
# rt-vs-cyclictest.sh: does the Go probe add latency a C probe would not?
# Like with like first (issue 31): each round runs cyclictest (Debian
# rt-tests) and rt.periodic with work none (rt.none: sleep to the next period
# with clock_nanosleep TIMER_ABSTIME, read the clock, nothing else, as
# cyclictest's thread does), with the same period, policy and priority
# (SCHED_FIFO), CPU, and locked memory (cyclictest -m, rt.periodic
# lock_memory), then rt.periodic with its work per period (rt.work: calibrated
# Leibniz terms for OCCUPANCY_PCT of each period), which is compared with
# rt.none: what the work adds, measured on its own. The order of the probes
# alternates from slice to slice: each probe's round is SECONDS_EACH/SLICE_SECONDS
# slices (default 10 s) interleaved with the other's, pooled into one row
# (bench/rtmerge.py; both probes' quantiles taken as cyclictest takes them:
# 1 us buckets), so that both meet the same minutes of the hypervisor; with
# SLICE_SECONDS=SECONDS_EACH each probe has the round's minute alone. Per round: samples, p50, p99, max of the
# wake-up latency and the measured CPU's steal time (what the hypervisor took
# from the vCPU); then per probe the median over the rounds beside the spread
# of its p99 over the rounds (min, max, IQR), both comparisons, and a verdict
# line (bench/rtrounds.py): rt.none's p99 within 20 us of cyclictest's in the
# median over the rounds, and whether the rounds' spread lets them decide (if
# not: more rounds). RUNS=2 repeats the whole for the goal's "two runs back to
# back" and ends with one line over the runs. Then the same question at
# equal steal (bench/rtsteal.py): on a VM each slice's p99 follows the ms the
# hypervisor took during it, so each slice pair's p99 difference is
# regressed on its steal difference, and the difference at equal steal,
# with its 95 % interval, is judged against the goal.
#
#   sudo bash bench/rt-vs-cyclictest.sh                   # 3 rounds of 30 s each, 1 ms period, prio 49
#   RUNS=2 ROUNDS=5 SECONDS_EACH=60 sudo -E bash bench/rt-vs-cyclictest.sh   # the goal's measurement: ~30 min
#   WORK=0 ...                                            # without rt.work (2 probes a round: ~20 min for the above)
#
# Both probes meet the same CPU idle states: by default neither sets
# /dev/cpu_dma_latency (cyclictest runs with --laptop); with CT_EXTRA= (no
# --laptop) cyclictest holds it at 0 while it runs, and so does this script
# while rt.periodic runs. On our VM that PM QoS setting alone moves both
# medians by about 8 us. Run on a quiet machine; repeat when uptime shows load.
#
# Both probes keep every thread but the measuring one off the measured CPU:
# rt.periodic does so itself; cyclictest's -a also pins its main thread
# there (it wakes every 10 ms to check for the end), so it gets
# --mainaffinity with the other CPUs (CT_MAIN=same leaves it on the measured
# CPU, as cyclictest places it by default).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
rt_settings
RUNS=${RUNS:-1}
ROUNDS=${ROUNDS:-3}
CT_EXTRA=${CT_EXTRA---laptop}
GOAL_US=${GOAL_US:-20}
SLICE_SECONDS=${SLICE_SECONDS:-10}
(( SECONDS_EACH % SLICE_SECONDS == 0 )) || { echo "SECONDS_EACH ($SECONDS_EACH) is not a multiple of SLICE_SECONDS ($SLICE_SECONDS)"; exit 1; }
SLICES=$(( SECONDS_EACH / SLICE_SECONDS ))
# mainaffinity: cyclictest's option that puts its main thread on every CPU but
# the measured one (none on a 1-CPU machine, or with CT_MAIN=same).
mainaffinity() {
  local others
  others=$(seq 0 $(( $(nproc) - 1 )) | grep -vx "$CPU" | paste -sd, -)
  [ -n "$others" ] && [ "${CT_MAIN:-}" != same ] && echo "--mainaffinity=$others"
  return 0
}
command -v cyclictest >/dev/null || { echo "cyclictest is not installed (Debian: apt-get install rt-tests)"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is not installed (Debian: apt-get install python3): bench/rtrounds.py summarises the rounds"; exit 1; }
make -s build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) CPUs, $(uname -r), $(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
qos="neither sets /dev/cpu_dma_latency"
[[ "$CT_EXTRA" == *--laptop* ]] || qos="both hold /dev/cpu_dma_latency at 0"
echo "each probe: ${SECONDS_EACH} s a round in ${SLICES} slices of ${SLICE_SECONDS} s interleaved with the other probes', period ${INTERVAL_US} us, SCHED_FIFO ${PRIO}, CPU ${CPU}, mlockall; ${qos}; cyclictest ${CT_EXTRA} $(mainaffinity)"
echo "rt.none: rt.periodic work none (what cyclictest does)$([ "$WORK" = 0 ] || echo "; rt.work: rt.periodic work calibrated, occupancy ${OCCUPANCY_PCT} % of each period")"

# steal: the measured CPU's steal time so far, in ms (/proc/stat counts it
# in USER_HZ ticks, 100 a second): the time the hypervisor ran something else
# on this vCPU. A round's maximum that lands in stolen time measures the host,
# not the probe.
steal() { awk -v c="cpu$CPU" '$1 == c {print $9 * 10}' /proc/stat; }

row() { printf '%-6s %-12s %8s %9s %9s %9s %9s\n' "$@"; }
freq=$(awk "BEGIN{print 1e6/$INTERVAL_US}")
# A probe's round is SLICES slices of SLICE_SECONDS, interleaved with the
# other probes' slices, so that a burst of steal falls on all of them alike
# rather than on whichever probe had that minute. Each slice's output is
# kept as $work/NAME.ROUND.SLICE; stolen ms are summed in $work/NAME.steal.
# rt_slice NAME WORK: one slice of rt.periodic with work WORK.
rt_slice() {
  local params out=$work/$1.$round.$slice s0
  params=$(printf '{"frequency_hz":%s,"work":"%s","occupancy_pct":%s,"duration":"%ss","priority":%s,"cpu":%s}' \
    "$freq" "$2" "$OCCUPANCY_PCT" "$SLICE_SECONDS" "$PRIO" "$CPU")
  s0=$(steal)
  if [[ "$CT_EXTRA" == *--laptop* ]]; then
    ./bin/boxtax worker --workload rt.periodic --params "$params" > "$out"
  else # as cyclictest does: keep the CPUs out of deep idle states while measuring
    (exec 3>/dev/cpu_dma_latency && printf '\x00\x00\x00\x00' >&3 &&
      ./bin/boxtax worker --workload rt.periodic --params "$params" > "$out")
  fi
  echo $(($(steal) - s0)) >> "$work/$1.$round.steal"
}
ct_slice() {
  local s0
  s0=$(steal)
  cyclictest -m -q -p "$PRIO" -i "$INTERVAL_US" -D "$SLICE_SECONDS" -a "$CPU" $(mainaffinity) -t 1 -h 20000 $CT_EXTRA > "$work/cyclictest.$round.$slice"
  echo $(($(steal) - s0)) >> "$work/cyclictest.$round.steal"
}
# round_row NAME KIND: the round's row of one probe, its slices pooled
# (bench/rtmerge.py: both probes' quantiles taken as cyclictest takes them).
round_row() {
  local n p50 p99 mx
  read -r n p50 p99 mx < <(python3 bench/rtmerge.py "$2" "$work/$1.$round".[0-9]*)
  row "$round" "$1" "$n" "$p50" "$p99" "$mx" "$(awk '{s += $1} END {print s}' "$work/$1.$round.steal")" | tee -a "$work/run$run.txt"
}

for run in $(seq 1 "$RUNS"); do
  [ "$RUNS" -gt 1 ] && echo && echo "run $run of $RUNS (load: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%H:%M UTC'))"
  row round probe samples p50_us p99_us max_us steal_ms
  for round in $(seq 1 "$ROUNDS"); do
    rm -f "$work"/*."$round".steal # a run's own slices: the files of an earlier run's round go
    for slice in $(seq 1 "$SLICES"); do
      # The order alternates, so that neither probe always follows the other.
      if (( (round + slice) % 2 )); then
        ct_slice; rt_slice rt.none none; [ "$WORK" = 0 ] || rt_slice rt.work calibrated
      else
        [ "$WORK" = 0 ] || rt_slice rt.work calibrated; rt_slice rt.none none; ct_slice
      fi
    done
    round_row cyclictest ct
    round_row rt.none rt
    [ "$WORK" = 0 ] || round_row rt.work rt
  done
  python3 bench/rtrounds.py "$work/run$run.txt" "$GOAL_US" | tee "$work/verdict$run.txt"
  python3 bench/rtsteal.py "$work" "$ROUNDS" "$SLICES" "$GOAL_US" | tee "$work/steal$run.txt"
done
if [ "$RUNS" -gt 1 ]; then
  echo
  met=$(cat "$work"/verdict*.txt | awk '/^verdict: .*: met/ {n++} END {print n + 0}')
  decided=$(cat "$work"/verdict*.txt | awk '/the spread lets the rounds decide/ {n++} END {print n + 0}')
  shown="not shown met"
  [ "$met" = "$RUNS" ] && [ "$decided" = "$RUNS" ] && shown="met"
  echo "over $RUNS runs back to back: the p99 goal met in $met of $RUNS, the spread small enough to decide in $decided of $RUNS: the goal is $shown"
  grep -h '^verdict:' "$work"/verdict*.txt | sed 's/; spread:.*//; s/^/  /'
  steal_met=$(cat "$work"/steal*.txt | awk '/^verdict at equal steal: met/ {n++} END {print n + 0}')
  shown="not shown met"
  [ "$steal_met" = "$RUNS" ] && shown="met"
  echo "at equal steal (each slice pair's p99 difference regressed on its steal difference, bench/rtsteal.py): met in $steal_met of $RUNS runs: the goal is $shown"
  grep -h '^at equal steal' "$work"/steal*.txt | sed 's/^/  /'
fi
