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
