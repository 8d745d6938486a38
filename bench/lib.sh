# bench/lib.sh: what the bench scripts share; they source it.

# metric NAME: a sample's value from boxtax worker output on stdin.
metric() { sed -n "s/.*\"metric\":\"$1\",\"value\":\([-0-9.e+]*\).*/\1/p"; }
# note KEY: a note's text from boxtax worker output on stdin.
note() { sed -n "s/.*\"key\":\"$1\",\"text\":\"\([^\"]*\)\".*/\1/p"; }

# start_gateway OUT [PREFIX...]: a fresh http.gateway ($BOXTAX worker
# --serve) on a free loopback port, started with PREFIX (e.g. taskset -c 0),
# its output to OUT; sets gw (its pid) and port once it listens.
start_gateway() {
  local out=$1
  shift
  "$@" "$BOXTAX" worker --workload http.gateway --serve 127.0.0.1:0 >"$out" 2>/dev/null &
  gw=$!
  port=
  for _ in $(seq 100); do
    port=$(note listening <"$out" | sed -n 's/^127\.0\.0\.1:\([0-9]*\)$/\1/p')
    [ -n "$port" ] && return
    sleep 0.1
  done
  echo "the gateway did not listen: $(cat "$out")" >&2
  exit 1
}

# rt_settings: what both rt probes (rt.periodic and cyclictest, in
# bench/rt-vs-cyclictest.sh and bench/rt-tail.sh) are run with, from the
# environment, else the defaults: SECONDS_EACH a probe's run, INTERVAL_US its
# period, PRIO its SCHED_FIFO priority, CPU the measured CPU (the last), WORK
# (0: without rt.work) and OCCUPANCY_PCT (rt.work's share of each period).
rt_settings() {
  SECONDS_EACH=${SECONDS_EACH:-30}
  INTERVAL_US=${INTERVAL_US:-1000}
  PRIO=${PRIO:-49}
  CPU=${CPU:-$(( $(nproc) - 1 ))}
  WORK=${WORK:-1}
  OCCUPANCY_PCT=${OCCUPANCY_PCT:-1}
}

# What the probe-vs-reference benches (http-vs-wrk, mqtt-vs-reference,
# net-vs-reference) share: one figure a round per file in $work (the
# script's mktemp -d), and the ratio lines of issue 40.

# sample FILE VALUE: append one round's figure to $work/FILE.
sample() { echo "$2" >> "$work/$1"; }
# median FILE: the median of $work/FILE's figures.
median() { sort -g "$work/$1" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
# paired A B: the median of the rounds' own ratios ($work/A's figure over
# $work/B's of the same round): steadier than the ratio of the medians
# when the host's speed drifts between rounds, since both tools of a round
# meet the same host.
paired() { paste -d' ' "$work/$1" "$work/$2" | awk '$2 > 0 {print $1 / $2}' > "$work/pair"; median pair; }
# timed FILE CMD...: run CMD, its stdout to $work/out, and append the CPU
# seconds it used (user + system, of CMD and the children it waited for
# alone, by GNU time) to $work/FILE. GNU time waits for CMD alone; the
# shell's `time` would also count a server that ended meanwhile.
timed() {
  local f=$1
  shift
  /usr/bin/time -f '%U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
    echo "$*: failed: $(tail -3 "$work/err"; tail -3 "$work/out")" >&2
    return 1
  }
  awk '{print $1 + $2}' "$work/time" >> "$work/$f"
}
# per_op CPUFILE OPSFILE OUT: each round's CPU time per operation in
# microseconds, from its CPU seconds and its operations, to $work/OUT.
per_op() { paste -d' ' "$work/$1" "$work/$2" | awk '$2 > 0 {print $1 * 1e6 / $2}' > "$work/$3"; }
# ratio_lines REF RATE_B RATE_R CPUOP_B CPUOP_R: the two lines of issue 40
# for boxtax (B) against the reference REF (R), from files of one figure a
# round: operations per second and CPU microseconds per operation; each
# the median of the rounds' own ratios, boxtax's over the reference's (for
# CPU lower is better).
ratio_lines() {
  printf 'ratio ops_per_s %s %.2f\n' "$1" "$(paired "$2" "$3")"
  printf 'ratio cpu_per_op %s %.2f\n' "$1" "$(paired "$4" "$5")"
}

# study_setup DIR: builds boxtax ($bin) and bench/verdicts ($verdicts), and
# sets tmp to DIR (kept) or, where DIR is empty, a fresh directory removed
# on exit.
study_setup() {
  make -s build
  bin=$PWD/bin/boxtax
  verdicts=${TMPDIR:-/tmp}/boxtax-verdicts.$$
  go build -o "$verdicts" ./bench/verdicts
  if [ -n "$1" ]; then
    tmp=$1
    mkdir -p "$tmp"
    trap 'rm -f "$verdicts"' EXIT
  else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp" "$verdicts"' EXIT
  fi
}
