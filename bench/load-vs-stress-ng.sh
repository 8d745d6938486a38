#!/usr/bin/env bash
# load-vs-stress-ng.sh: how the thesis's background load (seed 002, Section
# 4.3.2.4: stress-ng --cpu 2 --cpu-load 80 --cpu-method pi --sched fifo
# --sched-prio 48) and boxtax's built-in load.cpu differ in the shape of
# their load: the busy and idle slices of one worker and the duty it
# achieves (bench/slices.py), and the work each reports per second.
#
#   sudo bash bench/load-vs-stress-ng.sh          # 2 rounds of 10 s each
#   ROUNDS=3 SECONDS_EACH=20 sudo -E bash bench/load-vs-stress-ng.sh
#
# One worker of each, pinned to CPU 0 at SCHED_FIFO 48 as in the thesis;
# the sampler runs on CPU 1. Needs root (SCHED_FIFO), go, stress-ng, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
SECONDS_EACH=${SECONDS_EACH:-10}
BOXTAX=${BOXTAX:-/tmp/boxtax-bench}
command -v stress-ng >/dev/null || { echo "needs stress-ng (apt-get install stress-ng)" >&2; exit 1; }
go build -o "$BOXTAX" ./cmd/boxtax
. bench/lib.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "stress-ng $(stress-ng --version | awk '{print $3}'); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  "$BOXTAX" worker --workload load.cpu --cpus 0 \
    --params "{\"workers\":1,\"duty_pct\":80,\"policy\":\"fifo\",\"priority\":48,\"duration\":\"$((SECONDS_EACH + 1))s\"}" >"$out" &
  pid=$!
  sleep 0.5
  shape=$(taskset -c 1 python3 bench/slices.py "$pid" "$SECONDS_EACH")
  wait "$pid"
  echo "round $round load.cpu:  $shape  terms/s=$(metric terms_per_s <"$out")"
  stress-ng --cpu 1 --cpu-load 80 --cpu-method pi --sched fifo --sched-prio 48 --taskset 0 \
    --timeout "$((SECONDS_EACH + 1))s" --metrics-brief >"$out" 2>&1 &
  pid=$!
  sleep 0.5
  shape=$(taskset -c 1 python3 bench/slices.py "$pid" "$SECONDS_EACH")
  wait "$pid"
  echo "round $round stress-ng: $shape  bogo-ops/s=$(awk '/metrc:.* cpu /{print $9}' "$out")"
done
