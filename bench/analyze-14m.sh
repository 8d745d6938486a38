#!/usr/bin/env bash
# analyze-14m.sh: boxtax analyze on the thesis's data volume (seed 002: 14.4
# million time slices x 4 responses, deployment x kernel x load with the
# deployment:kernel interaction), read from two study databases as boxtax
# stores them and from one CSV. Prints wall time and peak RSS of each
# (/usr/bin/time -v). Goal: under 20 s and under 2 GiB each.
#
#   bash bench/analyze-14m.sh            # generates the data in $DIR (default /tmp), then deletes it
#   KEEP=1 bash bench/analyze-14m.sh     # keeps the 0.5 GB of databases and the 0.7 GB CSV
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
[ -s "$vanilla" ] && [ -s "$rt" ] || go run ./bench/rtdata -db "$vanilla,$rt"
[ -s "$csv" ] || go run ./bench/rtdata -csv "$csv"
ls -lh "$vanilla" "$rt" "$csv" | awk '{print "   " $5, $9}'

measure() { # label, command...
  local label=$1; shift
  /usr/bin/time -v "$@" > "$DIR/analyze-14m.out" 2> "$DIR/analyze-14m.time" || { cat "$DIR/analyze-14m.time"; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$DIR/analyze-14m.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MiB", $2/1024}' "$DIR/analyze-14m.time")
  printf '%-34s wall %s   peak RSS %s\n' "$label" "$wall" "$rss"
}

echo "== boxtax analyze (per slice and per run; every table)"
measure "two databases (--db --db)" $BIN analyze --db "$vanilla" --db "$rt"
grep -m1 -A0 "per slice" "$DIR/analyze-14m.out" | sed 's/^/   /'
measure "CSV, with a run column" $BIN analyze --csv "$csv" --responses oh1,work,oh2,sleep \
  --model "deployment + kernel + load + deployment:kernel" --run-column run \
  --reference deployment=native,kernel=vanilla,load=none
grep -m1 "per row" "$DIR/analyze-14m.out" | sed 's/^/   /'
rm -f "$DIR/analyze-14m.out" "$DIR/analyze-14m.time"
