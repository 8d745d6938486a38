#!/usr/bin/env bash
# stream-vs-c: is mem.stream as fast as STREAM compiled with
# gcc -O3 -march=native? In one run it measures mem.stream and bench/stream.c
# (the same kernels, sizes, byte counts and best-of rule, OpenMP threads on
# contiguous chunks) alternately, ROUNDS times, with 1 and 2 threads,
# unpinned and pinned (taskset to CPU 0, or CPUs 0-1 for 2 threads), and
# prints the medians of the best rates and their ratios.
# Goal: every kernel >= 0.95 x C's rate.
#
#   bench/stream-vs-c.sh                          # 5 rounds, 20 M elements, ntimes 10
#   ROUNDS=7 ELEMENTS=16777216 NTIMES=20 bench/stream-vs-c.sh
#
# BOXTAX: the binary (default: bin/boxtax, built with make build if missing).
# Needs gcc with OpenMP (apt-get install gcc). Uses 3 x 8 x ELEMENTS bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
ELEMENTS=${ELEMENTS:-20000000}
NTIMES=${NTIMES:-10}
BOXTAX=${BOXTAX:-bin/boxtax}
command -v gcc >/dev/null || { echo "gcc is missing: apt-get install gcc" >&2; exit 2; }
[ -x "$BOXTAX" ] || make build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O3 -march=native -fopenmp -o "$work/stream" bench/stream.c

median() { sort -g "$work/$1" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
field() { sed -n "s/.*\"metric\":\"$1\",\"value\":\([-0-9.e+]*\).*/\1/p"; }
kernels="copy scale add triad"

echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uptime | sed 's/.*load average/load average/')"
echo "boxtax $("$BOXTAX" version 2>/dev/null | head -1), $(gcc --version | head -1) -O3 -march=native -fopenmp"
echo "rounds: $ROUNDS, $ELEMENTS elements a array, ntimes $NTIMES"
for r in $(seq "$ROUNDS"); do
  for threads in 1 2; do
    for pin in 0 1; do
      run=()
      if [ "$pin" = 1 ]; then run=(taskset -c "0-$((threads - 1))"); fi
      key="t${threads}p${pin}"
      read -r _ copy _ scale _ add _ triad _ < <(OMP_NUM_THREADS=$threads "${run[@]}" "$work/stream" "$ELEMENTS" "$NTIMES")
      for k in $kernels; do echo "${!k}" >> "$work/$key.c.$k"; done
      out=$("${run[@]}" "$BOXTAX" worker --workload mem.stream --params "{\"array_size\":$ELEMENTS,\"ntimes\":$NTIMES,\"threads\":$threads}")
      for k in $kernels; do field "${k}_MBps" <<<"$out" >> "$work/$key.go.$k"; done
    done
  done
  echo "round $r done: $(uptime | sed 's/.*load average/load average/')"
done

echo
printf '%-30s %12s %12s %7s %s\n' "kernel (median MB/s)" "boxtax" "C -O3" "ratio" "goal"
for threads in 1 2; do
  for pin in 0 1; do
    key="t${threads}p${pin}"
    for k in $kernels; do
      g=$(median "$key.go.$k") c=$(median "$key.c.$k")
      printf '%-30s %12.0f %12.0f %7s %s\n' "$k, $threads thread(s), pinned $pin" "$g" "$c" "$(awk -v a="$g" -v b="$c" 'BEGIN {printf "%.3f", a / b}')" ">= 0.95"
    done
  done
done
