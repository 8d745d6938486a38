#!/usr/bin/env bash
# startup: what starting the boxtax binary costs in CPU (issue 40). Every
# probe runs as a worker, a fresh boxtax process, so its start is part of
# the CPU per operation the probe benches (net-vs-reference,
# mqtt-vs-reference) compare with C tools. In one run, interleaved, it
# measures the CPU time (user + system of the process alone, wait4's
# rusage) of
#   /bin/true                        the reference: a C program's start
#   an empty static C program        (where gcc -static works)
#   an empty Go program              the floor of any Go binary (with go)
#   boxtax version                   the binary's start and nothing else
#   boxtax worker (sys.idle, 0 s)    the worker's entry: hello, notes,
#                                    scratch directory, done
# ROUNDS rounds of RUNS runs of each, the programs alternating by round, and
# prints the medians in ms and `ratio startup_cpu REF X` lines: the median
# of the rounds' own ratios (the round's median for boxtax version over the
# reference's; for the worker's entry, `ratio worker_start_cpu REF X`).
#
#   bench/startup.sh                    # 20 rounds of 10 runs
#   ROUNDS=40 RUNS=5 BOXTAX=/tmp/old bench/startup.sh
#
# BOXTAX: the binary (default: bin/boxtax, built with make build if
# missing). BASE: another boxtax binary (e.g. the parent commit's), measured
# in the same rounds, for `ratio startup_cpu base X` (BOXTAX's over BASE's).
# Needs gcc (apt-get install gcc).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-20}
RUNS=${RUNS:-10}
BOXTAX=${BOXTAX:-bin/boxtax}
command -v gcc >/dev/null || { echo "gcc is missing: apt-get install gcc" >&2; exit 2; }
[ -x "$BOXTAX" ] || make build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -Wall -o "$work/startcpu" bench/startcpu.c
echo 'int main(void) { return 0; }' > "$work/empty.c"
names=(true) cmds=("/bin/true")
if gcc -O2 -static -o "$work/empty_c" "$work/empty.c" 2>/dev/null; then
  names+=(c_static) cmds+=("$work/empty_c")
fi
if command -v go >/dev/null; then
  mkdir "$work/gomin"
  printf 'package main\n\nfunc main() {}\n' > "$work/gomin/main.go"
  printf 'module gomin\n\ngo 1.21\n' > "$work/gomin/go.mod"
  if (cd "$work/gomin" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o ../empty_go . 2>/dev/null); then
    names+=(go_empty) cmds+=("$work/empty_go")
  fi
fi
idle='--workload sys.idle --params {"duration":"0s"}'
names+=(boxtax_version boxtax_worker)
cmds+=("$BOXTAX version" "$BOXTAX worker $idle")
if [ -n "${BASE:-}" ]; then
  names+=(base_version base_worker)
  cmds+=("$BASE version" "$BASE worker $idle")
fi

echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
echo "$("$BOXTAX" version 2>/dev/null | head -1)"
echo "rounds: $ROUNDS x $RUNS runs of each, interleaved by round"
for r in $(seq "$ROUNDS"); do
  for i in "${!names[@]}"; do
    # shellcheck disable=SC2086 # the command's words, split on purpose
    "$work/startcpu" "$RUNS" ${cmds[$i]} > "$work/runs"
    sort -n "$work/runs" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2) / 1000}' >> "$work/${names[$i]}"
    cat "$work/runs" >> "$work/${names[$i]}.all"
  done
done

echo
echo "CPU time of one start, user + system (ms; median of the rounds' medians, and over all runs p10-p90):"
for n in "${names[@]}"; do
  sort -n "$work/$n.all" | awk -v n="$n" -v m="$(median "$n")" '{v[NR]=$1} END {
    printf "  %-16s %7.3f ms   p10 %6.3f  p90 %6.3f\n", n, m, v[int(NR*0.1)+1] / 1000, v[int(NR*0.9)] / 1000}'
done
echo
for ref in "${names[@]}"; do
  case $ref in boxtax_* | base_*) continue ;; esac
  printf 'ratio startup_cpu %s %.2f\n' "$ref" "$(paired boxtax_version "$ref")"
done
for ref in "${names[@]}"; do
  case $ref in boxtax_* | base_*) continue ;; esac
  printf 'ratio worker_start_cpu %s %.2f\n' "$ref" "$(paired boxtax_worker "$ref")"
done
if [ -n "${BASE:-}" ]; then
  printf 'ratio startup_cpu base %.2f\n' "$(paired boxtax_version base_version)"
  printf 'ratio worker_start_cpu base %.2f\n' "$(paired boxtax_worker base_worker)"
fi
printf 'startup_cpu_ms boxtax_version %.3f boxtax_worker %.3f true %.3f\n' "$(median boxtax_version)" "$(median boxtax_worker)" "$(median true)"
