#!/usr/bin/env bash
# analyze-14m.sh: boxtax analyze on the thesis's data volume (seed 002: 14.4
# million time slices x 4 responses, deployment x kernel x load with the
# deployment:kernel interaction), read from two study databases as boxtax
# stores them and from one CSV. Prints wall time and peak RSS of each
# (/usr/bin/time -v). Goal: under 20 s and under 2 GiB each. Then the CSV's
# analysis against a bare parse of the same file with the analysis's own
# reader (bench/csvparse: lines, fields, numbers, nothing kept), ROUNDS
# times in turn; it prints the median ratio of wall and of CPU time
# (user + system) as `ratio analysis_over_parse X` (goal: at most 3).
#
#   bash bench/analyze-14m.sh            # generates the data in $DIR (default /tmp), then deletes it
#   KEEP=1 bash bench/analyze-14m.sh     # keeps the 0.5 GB of databases and the 0.7 GB CSV
#   ROUNDS=5 ONLY_CSV=1 bash bench/analyze-14m.sh   # five rounds of the CSV's ratio, no databases
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${DIR:-/tmp}
BIN=bin/boxtax
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian: apt-get install time)"; exit 1; }
make -s build
vanilla=$DIR/rt14m-vanilla.db rt=$DIR/rt14m-rt.db csv=$DIR/rt14m.csv
cleanup() { [ -n "${KEEP:-}" ] || rm -f "$vanilla" "$rt" "$csv" "$vanilla"-* "$rt"-*; }
trap cleanup EXIT

echo "== generating 2 x 20 runs x 360000 slices (databases) and the same as one CSV in $DIR"
if [ -z "${ONLY_CSV:-}" ] && { [ ! -s "$vanilla" ] || [ ! -s "$rt" ]; }; then
  go run ./bench/rtdata -db "$vanilla,$rt"
fi
[ -s "$csv" ] || go run ./bench/rtdata -csv "$csv"
ls -lh "$csv" $([ -n "${ONLY_CSV:-}" ] || echo "$vanilla $rt") | awk '{print "   " $5, $9}'

measure() { # label, command...
  local label=$1; shift
  /usr/bin/time -v "$@" > "$DIR/analyze-14m.out" 2> "$DIR/analyze-14m.time" || { cat "$DIR/analyze-14m.time"; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$DIR/analyze-14m.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MiB", $2/1024}' "$DIR/analyze-14m.time")
  printf '%-34s wall %s   peak RSS %s\n' "$label" "$wall" "$rss"
}

if [ -z "${ONLY_CSV:-}" ]; then
echo "== boxtax analyze (per slice and per run; every table)"
  measure "two databases (--db --db)" $BIN analyze --db "$vanilla" --db "$rt"
  grep -m1 -A0 "per slice" "$DIR/analyze-14m.out" | sed 's/^/   /'
fi
measure "CSV, with a run column" $BIN analyze --csv "$csv" --responses oh1,work,oh2,sleep \
  --model "deployment + kernel + load + deployment:kernel" --run-column run \
  --reference deployment=native,kernel=vanilla,load=none
grep -m1 "per row" "$DIR/analyze-14m.out" | sed 's/^/   /'

echo "== the CSV's analysis over a bare parse of it with the same reader (ROUNDS=${ROUNDS:=3}, in turn)"
go build -o "$DIR/csvparse" ./bench/csvparse
analysis=($BIN analyze --csv "$csv" --responses oh1,work,oh2,sleep \
  --model "deployment + kernel + load + deployment:kernel" --run-column run \
  --reference deployment=native,kernel=vanilla,load=none)
parse=("$DIR/csvparse" "$csv" oh1,work,oh2,sleep)
timed() { # prints "wall_s cpu_s rss_kib" of one run of a command
  /usr/bin/time -f '%e %U %S %M' -o "$DIR/analyze-14m.time" "$@" > /dev/null || { cat "$DIR/analyze-14m.time"; exit 1; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$DIR/analyze-14m.time"
}
: > "$DIR/analyze-14m.rounds"
for r in $(seq "$ROUNDS"); do
  read -r pw pc pm < <(timed "${parse[@]}")
  read -r aw ac am < <(timed "${analysis[@]}")
  printf '   round %d: parse %6.2f s wall %6.2f s cpu %4d MiB   analysis %6.2f s wall %6.2f s cpu %4d MiB\n' \
    "$r" "$pw" "$pc" $((pm / 1024)) "$aw" "$ac" $((am / 1024))
  echo "$pw $pc $aw $ac" >> "$DIR/analyze-14m.rounds"
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
wall=$(awk '{printf "%.4f\n", $3 / $1}' "$DIR/analyze-14m.rounds" | median)
cpu=$(awk '{printf "%.4f\n", $4 / $2}' "$DIR/analyze-14m.rounds" | median)
printf 'ratio analysis_over_parse %.2f\n' "$wall"
printf 'ratio analysis_over_parse_cpu %.2f\n' "$cpu"
rm -f "$DIR/analyze-14m.out" "$DIR/analyze-14m.time" "$DIR/analyze-14m.rounds" "$DIR/csvparse"
