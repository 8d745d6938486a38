#!/usr/bin/env bash
# Time to answer (issue 28 item 5): how long until every primary cell of
# the quick study is decided (a cost shown, or no difference beyond ±2 %:
# the adaptive stopping rule, result.Decide), against fixed 3 and 10
# repetitions, and how often each run's verdicts agree with those of a long
# run (20 rounds) on the same machine. Goal: at least 95 % agreement in
# under 10 minutes. Prints minutes, rounds, cells decided, agreement, cells
# decided that the reference left undecided, and contradictions (verdicts
# that cannot both be true: see row below), and the adaptive run's time as
# a ratio of the fixed ones;
# then the same runs judged paired by round (report --paired), which takes
# out what drifts from round to round on a shared host.
#
#   bash bench/time-to-answer.sh                    # the quick study, long run of 20 rounds: about an hour
#
# Smaller, for a busy or slow machine (environment variables):
#   TTA_WORKLOADS=cpu.prime,mem.stream   only these workloads (default: the study's)
#   TTA_ENVS=native,docker-bridge        only these environments (default: the study's)
#   TTA_LONG=8                           rounds of the reference run (default 20)
#   TTA_BUDGET=4m                        the adaptive run's budget (default 10m)
#   TTA_MARGIN=2                         the margin p of "no difference beyond ±p %" (default 2)
#   TTA_SETTLE=0                         --settle for every run (default: boxtax's)
#   TTA_STUDY=quick                      the study (default quick)
#   TTA_CEILING=1                        also a second reference run (long2), judged against
#                                        the first: how well two long runs agree on this
#                                        host, the most any shorter run can be expected to
#   TTA_ONLY="fixed3 fixed10 long"      measure only these runs (into TTA_DIR) and stop
#   TTA_DIR=/tmp/tta                     keep the databases there; a run whose database and
#                                        time are already there is judged again, not rerun
#                                        (e.g. measure the fixed and long runs once, then
#                                        the adaptive run of each change: rm TTA_DIR/adaptive.*)
set -euo pipefail
cd "$(dirname "$0")/.."
study=${TTA_STUDY:-quick}
long=${TTA_LONG:-20}
budget=${TTA_BUDGET:-10m}
margin=${TTA_MARGIN:-2}
sel=()
[ -n "${TTA_WORKLOADS:-}" ] && sel+=(--workloads "$TTA_WORKLOADS")
[ -n "${TTA_ENVS:-}" ] && sel+=(--envs "$TTA_ENVS")
[ -n "${TTA_SETTLE:-}" ] && sel+=(--settle "$TTA_SETTLE")
. bench/lib.sh
study_setup "${TTA_DIR:-}"

# measure NAME ARGS...: one study run into its own database; its seconds
# in NAME.s, its verdicts in NAME.v, its log in NAME.err.
measure() {
  local name=$1
  shift
  if [ -s "$tmp/$name.s" ] && [ -s "$tmp/$name.db" ]; then
    echo "reusing $name: $tmp/$name.db" >&2
    "$verdicts" -margin "$margin" "$tmp/$name.db" >"$tmp/$name.v"
    "$verdicts" -margin "$margin" -paired "$tmp/$name.db" >"$tmp/$name.pv"
    return
  fi
  rm -f "$tmp/$name".*
  echo "running $name: boxtax run $study ${sel[*]} $*" >&2
  local start end
  start=$(date +%s.%N)
  # exit 3 (some runs failed) still leaves a study to judge
  "$bin" run "$study" --db "$tmp/$name.db" "${sel[@]}" "$@" --quiet >/dev/null 2>"$tmp/$name.err" || [ $? -eq 3 ] ||
    { echo "$name failed:" >&2; tail -5 "$tmp/$name.err" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { print e - s }' >"$tmp/$name.s"
  "$verdicts" -margin "$margin" "$tmp/$name.db" >"$tmp/$name.v"
  "$verdicts" -margin "$margin" -paired "$tmp/$name.db" >"$tmp/$name.pv"
}

wanted() { [ -z "${TTA_ONLY:-}" ] || [[ " $TTA_ONLY " == *" $1 "* ]]; }
wanted fixed3 && measure fixed3 --reps 3
wanted fixed10 && measure fixed10 --reps 10
wanted long && measure long --reps "$long"
wanted adaptive && measure adaptive --budget "$budget" --precision "$margin"
if [ -n "${TTA_CEILING:-}" ] && wanted long2; then measure long2 --reps "$long"; fi
if [ -n "${TTA_ONLY:-}" ]; then
  echo "measured $TTA_ONLY${TTA_DIR:+ into $TTA_DIR}; run again without TTA_ONLY for the table" >&2
  exit 0
fi

# row NAME LABEL [EXT]: minutes, rounds (the most any cell had), cells
# decided, the same verdict as the reference's (of every cell, and of
# those the reference decided), cells decided that the reference left
# undecided (more precise than it: not checkable against it), decided
# verdicts that differ but are compatible (their 95 % intervals overlap: a
# cost of 1.3 % [0.2, 2.4] and no difference beyond ±2 % [-1.6, 2.0] can
# both be true), and contradictions: decided verdicts whose intervals do
# not overlap (a cost against the opposite cost, or against no difference
# when the whole cost lies past it). EXT: v (default), or pv for the
# verdicts paired by round, the reference's paired too.
row() {
  local ext=${3:-v}
  awk -F'\t' -v label="$2" -v secs="$(cat "$tmp/$1.s")" '
    FNR == NR { ref[$1] = $2; rlo[$1] = $4; rhi[$1] = $5; if ($2 != "undecided") refdec++; next }
    {
      n++; if ($2 != "undecided") decided++
      if ($6 > rounds) rounds = $6
      r = ref[$1]
      if ($2 == r) { agree++; if ($2 != "undecided") agreedec++ }
      else if ($2 != "undecided" && r == "undecided") beyond++
      else if ($2 != "undecided" && r != "undecided") {
        if ($4 + 0 > rhi[$1] + 0 || rlo[$1] + 0 > $5 + 0) contra++
        else compatible++
      }
    }
    END {
      printf "%-26s %7.1f %7d %5d/%-4d %5d/%-4d = %5.1f %%   %5d/%-4d %7d %9d %14d\n", label, secs / 60, rounds, decided, n,
        agree, n, n ? 100 * agree / n : 0, agreedec, refdec, beyond, compatible, contra
    }' "$tmp/${ref:-long}.$ext" "$tmp/$1.$ext"
}

cells=$(wc -l <"$tmp/long.v")
ref_decided=$(awk -F'\t' '$2 != "undecided"' "$tmp/long.v" | wc -l)
echo
echo "time to answer: $study${TTA_WORKLOADS:+ ($TTA_WORKLOADS)}, $cells primary cells, verdicts at ±$margin %"
echo "reference: $long rounds in $(awk '{printf "%.1f", $1 / 60}' "$tmp/long.s") min, $ref_decided of $cells cells decided"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo
printf "%-26s %7s %7s %10s %21s %13s %7s %9s %14s\n" run minutes rounds decided "same verdict" "of decided" beyond compatible contradictions
row adaptive "adaptive (--budget $budget)"
row fixed3 "fixed 3 repetitions"
row fixed10 "fixed 10 repetitions"
if [ -s "$tmp/long2.s" ]; then
  row long2 "another $long rounds (ceiling)"
  echo "against that second reference ($(awk -F'\t' '$2 != "undecided"' "$tmp/long2.v" | wc -l) of $cells decided):"
  for r in adaptive fixed3 fixed10; do ref=long2 row $r "  $r"; done
fi
echo
echo "the same runs judged paired by round (report --paired; the reference paired too: $(awk -F'\t' '$2 != "undecided"' "$tmp/long.pv" | wc -l) of $cells decided):"
row adaptive "adaptive (--budget $budget)" pv
row fixed3 "fixed 3 repetitions" pv
row fixed10 "fixed 10 repetitions" pv
echo
grep -E '^(every cell decided|stopped after)' "$tmp/adaptive.err" | sed 's/^/adaptive run: /' || true
awk -v a="$(cat "$tmp/adaptive.s")" -v f3="$(cat "$tmp/fixed3.s")" -v f10="$(cat "$tmp/fixed10.s")" 'BEGIN {
  printf "adaptive time / fixed 3: %.2f, / fixed 10: %.2f\n", a / f3, a / f10 }'
awk -F'\t' -v secs="$(cat "$tmp/adaptive.s")" 'FNR == NR { ref[$1] = $2; if ($2 != "undecided") refdec++; next }
  { n++; if ($2 == ref[$1]) agree++; if ($2 != "undecided") decided++ }
  END { pct = n ? 100 * agree / n : 0
        printf "goal (>= 95 %% the same verdict as the long run, in < 10 min): %.1f %% in %.1f min, %d of %d cells decided: %s\n",
          pct, secs / 60, decided, n, (pct >= 95 && secs < 600) ? "met" : "not met"
        if (refdec < n / 2)
          printf "note: the reference decided only %d of %d cells, so agreeing with it says little: run on a quieter machine, or with more rounds (TTA_LONG)\n", refdec, n }' \
  "$tmp/long.v" "$tmp/adaptive.v"
