#!/usr/bin/env bash
# Monitors must not disturb what they measure: run cpu.prime natively with the
# monitors at the default interval (1 s) and without, alternating, and print
# the difference of the mean events/s. Goal: under 1 %.
#
#   bash bench/monitor-overhead.sh [PAIRS]     (default 8 pairs of 3 s runs)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-8}
make -s build
bin=$PWD/bin/boxtax
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
on=() off=()
rate() { # db -> events/s of the run's figure
  "$bin" report --db "$1" --format csv | awk -F, '$NF=="events/s" && $(NF-3)==0 && $(NF-5)=="false" {print $(NF-1)}'
}
for i in $(seq 1 "$pairs"); do
  for mode in on off; do
    interval=1s; [ "$mode" = off ] && interval=0
    db="$tmp/$mode-$i.db"
    "$bin" run --db "$db" --envs native --workloads cpu.prime --reps 1 --warmup 0 \
      --monitor-interval "$interval" --settle 10s --quiet >/dev/null 2>&1
    v=$(rate "$db")
    if [ "$mode" = on ]; then on+=("$v"); else off+=("$v"); fi
  done
done
printf '%s\n' "${on[@]}" > "$tmp/on"; printf '%s\n' "${off[@]}" > "$tmp/off"
awk -v pairs="$pairs" '
  FNR==1 { f++ }
  { s[f]+=$1; ss[f]+=$1*$1; n[f]++ }
  END {
    m1=s[1]/n[1]; m2=s[2]/n[2]
    sd1=sqrt((ss[1]-n[1]*m1*m1)/(n[1]-1)); sd2=sqrt((ss[2]-n[2]*m2*m2)/(n[2]-1))
    printf "cpu.prime events/s, %d pairs of runs, native\n", pairs
    printf "  monitors every 1 s: %.1f (sd %.1f)\n", m1, sd1
    printf "  monitors off:       %.1f (sd %.1f)\n", m2, sd2
    printf "  difference: %+.2f%% (goal: within 1%%)\n", (m1/m2-1)*100
  }' "$tmp/on" "$tmp/off"
