#!/usr/bin/env bash
# The same answer twice (issue 43 item 1): run the default study K times
# back to back, each as `make run` does (bin/boxtax run, the default study
# and its budget), all into one database, and print for every pair of
# studies the cells decided in either, those with the same verdict in both,
# those decided in one only, and contradictions: cells decided in both with
# different verdicts (a cost against a gain, a cost against no difference)
# or with intervals that do not overlap (a cost of 70 % [59, 79] against
# one of 92 % [80, 100]). The verdicts are each study's answer, as its
# report and its run's end lines give it (bench/verdicts: result.Decide's
# firm verdicts at the study's margin where the study stopped).
# Goal: 0 contradictions, >= 90 % of the cells decided in either decided
# the same in both.
#
#   bash bench/replicate.sh                  # 3 default studies of 5 minutes each: about 20 minutes
#
# Environment variables, to try it quickly or on a busy machine:
#   REPLICATE_K=2                    studies to run (default 3)
#   REPLICATE_BUDGET=1m              --budget of each (default: the study's, 5m for quick)
#   REPLICATE_STUDY=quick            the study (default: boxtax run's default, quick)
#   REPLICATE_WORKLOADS=cpu.prime    only these workloads (default: the study's)
#   REPLICATE_ENVS=native,docker-host only these environments (default: the study's)
#   REPLICATE_SETTLE=0               --settle of each run (default: boxtax's)
#   REPLICATE_DIR=/tmp/rep           keep the database (replicate.db), logs and verdicts
#                                    there (default: a temporary directory, removed);
#                                    `boxtax report --history --db DIR/replicate.db` then
#                                    shows the studies side by side
#   REPLICATE_JUDGE=1                judge the studies already in REPLICATE_DIR again, run none
#   REPLICATE_PAIRED=1               judge each cell by its runs paired with the baseline's of
#                                    the same round (bench/verdicts -paired, report --paired)
#   REPLICATE_PLAIN=1                judge by the verdicts of the 95 % intervals alone
#                                    (bench/verdicts -plain) instead of the studies' firm ones
set -euo pipefail
cd "$(dirname "$0")/.."
k=${REPLICATE_K:-3}
args=()
[ -n "${REPLICATE_STUDY:-}" ] && args+=("$REPLICATE_STUDY")
[ -n "${REPLICATE_BUDGET:-}" ] && args+=(--budget "$REPLICATE_BUDGET")
[ -n "${REPLICATE_WORKLOADS:-}" ] && args+=(--workloads "$REPLICATE_WORKLOADS")
[ -n "${REPLICATE_ENVS:-}" ] && args+=(--envs "$REPLICATE_ENVS")
[ -n "${REPLICATE_SETTLE:-}" ] && args+=(--settle "$REPLICATE_SETTLE")
. bench/lib.sh
study_setup "${REPLICATE_DIR:-}"
db=$tmp/replicate.db

if [ -z "${REPLICATE_JUDGE:-}" ]; then
  rm -f "$db" "$db"-* "$tmp"/study*.{v,a,s,err}
  for i in $(seq 1 "$k"); do
    echo "study $i of $k: boxtax run ${args[*]} --db $db" >&2
    start=$(date +%s.%N)
    # exit 3 (some runs failed) and 4 (a gate) still leave a study to judge
    "$bin" run "${args[@]}" --db "$db" --quiet >/dev/null 2>"$tmp/study$i.err" || [ $? -eq 3 ] ||
      { echo "study $i failed:" >&2; tail -5 "$tmp/study$i.err" >&2; exit 1; }
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { print e - s }' >"$tmp/study$i.s"
  done
fi
# each study's verdicts; study i is the database's i-th (ids from 1)
for i in $(seq 1 "$(ls "$tmp"/study*.s | wc -l)"); do
  "$verdicts" ${REPLICATE_PLAIN:+-plain} ${REPLICATE_PAIRED:+-paired} -study "$i" "$db" >"$tmp/study$i.v"
  "$verdicts" ${REPLICATE_PLAIN:+-plain} ${REPLICATE_PAIRED:+-paired} -alone -study "$i" "$db" >"$tmp/study$i.a"
done

n=$(ls "$tmp"/study*.v | wc -l)
cells=$(wc -l <"$tmp/study1.v")
echo
echo "replicate: ${REPLICATE_STUDY:-the default study}${REPLICATE_WORKLOADS:+ ($REPLICATE_WORKLOADS)}, $n studies back to back, $cells primary cells each${REPLICATE_BUDGET:+, --budget $REPLICATE_BUDGET}"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo
printf "%-8s %8s %7s %8s\n" study minutes rounds decided
for i in $(seq 1 "$n"); do
  awk -F'\t' -v i="$i" -v secs="$(cat "$tmp/study$i.s" 2>/dev/null || echo 0)" '
    { n++; if ($2 != "undecided") d++; if ($6 > r) r = $6 }
    END { printf "%-8s %8.1f %7d %5d/%-4d\n", i, secs / 60, r, d, n }' "$tmp/study$i.v"
done
# pairs KIND TITLE prints the pairs' table of the verdicts in study*.KIND.
pairs() {
  echo
  echo "$2"
  printf "%-8s %8s %14s %12s %14s\n" pair "decided" "same verdict" "one only" contradictions
  for i in $(seq 1 "$n"); do
    for j in $(seq $((i + 1)) "$n"); do
      # pair A B: a cell is decided in either when one of the two decided
      # it; the same when both gave the same verdict; one only when the
      # other left it undecided; a contradiction when both decided it and
      # the verdicts differ or the intervals do not overlap. Contradicting
      # cells are listed under the line.
      awk -F'\t' -v pair="$i-$j" '
        FNR == NR { v[$1] = $2; lo[$1] = $4; hi[$1] = $5; pct[$1] = $3; next }
        {
          a = v[$1]; b = $2
          if (a == "undecided" && b == "undecided") next
          either++
          if (a == b && !($4 + 0 > hi[$1] + 0 || lo[$1] + 0 > $5 + 0)) { same++; next }
          if (a == "undecided" || b == "undecided") { one++; next }
          contra++
          lines = lines sprintf("  %s: %s %.1f%% [%.1f, %.1f], then %s %.1f%% [%.1f, %.1f]\n", $1, a, pct[$1], lo[$1], hi[$1], b, $3, $4, $5)
        }
        END {
          printf "%-8s %8d %8d = %5.1f %% %8d %14d\n", pair, either, same, either ? 100 * same / either : 100, one, contra
          printf "%s", lines
        }' "$tmp/study$i.$1" "$tmp/study$j.$1"
    done
  done | tee "$tmp/pairs.$1"
  awk '$1 ~ /^[0-9]+-[0-9]+$/ { c += $8; if (min == "" || $5 + 0 < min) min = $5 + 0 }
    END { printf "goal (0 contradictions, >= 90 %% the same verdict in every pair): %d contradictions, lowest agreement %.1f %%: %s\n",
          c, min, (c == 0 && min >= 90) ? "met" : "not met" }' "$tmp/pairs.$1"
}
pairs v "the verdicts as each study gave them (its intervals carry the spread between it and the earlier studies of this host):"
if ls "$tmp"/study*.a >/dev/null 2>&1; then
  pairs a "each study judged alone (bench/verdicts -alone: its own runs only, as a first study of the host is):"
fi
for i in $(seq 1 "$n"); do
  grep -E '^(every cell decided|stopped after)' "$tmp/study$i.err" 2>/dev/null | sed "s/^/study $i: /" || true
done
