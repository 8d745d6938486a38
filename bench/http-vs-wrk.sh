#!/usr/bin/env bash
# http-vs-wrk: is boxtax's HTTP load generator (the client of http.gateway)
# ever the bottleneck it claims to measure? On loopback, in one run, the
# same target (the http.gateway gateway, started natively with
# `boxtax worker --serve`, a fresh one for every measurement) is loaded by
# wrk (Debian's) and by boxtax's generator, alternating ROUNDS times, with
# the same connections, threads, duration and keep-alive on; then, when ab
# (apache2-utils) is installed, keep-alive off against ab (one thread, a new
# connection per request, as ab without -k). It prints the medians and the
# ratios, and each client's CPU time per request, which a busy host
# disturbs less than the rates. Goal: boxtax >= 1.0 x wrk's requests/s
# (issue 18: the generator must not be slower than the C tool it stands in
# for) and >= 0.9 x ab's, read from the paired ratio (each round's own).
#
#   bench/http-vs-wrk.sh                          # 5 rounds of 5 s, 50 connections
#   ROUNDS=7 SECS=3 CONNS=150 THREADS=2 PIN=0 bench/http-vs-wrk.sh
#
# ROUNDS, SECS: rounds and seconds per measurement; NETNS=0: on the host's
# network namespace (see below); CONNS: concurrent
# connections (wrk -c, ab -c, clients); THREADS: client threads (wrk -t;
# boxtax's GOMAXPROCS); PIN=1 (default) pins the gateway to CPU 0 and every
# client to CPU 1 (taskset), as a study places them, the same for every
# tool; PIN=0 lets them share the CPUs. POLL: boxtax's poll parameter
# (default: its own, 0: it naps, then sleeps in epoll; auto busy-polls for
# answers where it has a CPU of its own, docs/gateway.md).
# BOXTAX: the binary (default:
# bin/boxtax, built with make build if missing). Needs wrk; ab is optional
# (apt-get install wrk apache2-utils), and GNU time. Loopback only: the gateway listens on
# 127.0.0.1 and every client stops by itself after SECS.
set -Eeuo pipefail
# A step that fails says which, rather than ending the script in silence.
trap 'echo "$0: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR
cd "$(dirname "$0")/.."
. bench/lib.sh
# Without keep-alive both tools open some 40000 connections a second, and
# each holds an entry of the host's connection tracking for 2 minutes after
# it closed: the table fills within a round and the kernel drops new
# connections, which then wait a second. So, as root, the whole comparison
# runs in a network namespace of its own (its loopback only), where no
# firewall rule turns connection tracking on; NETNS=0 runs on the host's.
if [ "${NETNS:-1}" = 1 ] && [ -z "${BENCH_IN_NETNS:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null; then
  exec env BENCH_IN_NETNS=1 unshare --net bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-5}
CONNS=${CONNS:-50}
THREADS=${THREADS:-1}
PIN=${PIN:-1}
BOXTAX=${BOXTAX:-bin/boxtax}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is missing: apt-get install time" >&2; exit 2; }
have_ab=0
command -v ab >/dev/null && have_ab=1
[ -x "$BOXTAX" ] || make build >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

srv=() cli=()
if [ "$PIN" = 1 ]; then srv=(taskset -c 0) cli=(taskset -c 1); fi
port=
path=/rest/iam/reading

# gateway: start a fresh gateway on a free port ($port); $gw is its pid.
gateway() { start_gateway "$work/gateway.out" "${srv[@]}"; }
# stop: end the gateway a reference tool loaded (boxtax's ends by itself).
stop() { kill "$gw" 2>/dev/null || true; wait "$gw" 2>/dev/null || true; }
# boxtax_load CPUFILE KEEPALIVE THREADS: boxtax's generator against a fresh gateway.
boxtax_load() {
  gateway
  GOMAXPROCS=$3 timed "$1" "${cli[@]}" "$BOXTAX" worker --workload http.gateway --client "127.0.0.1:$port" \
    --params "{\"clients\":$CONNS,\"keepalive\":$2,\"duration\":\"${SECS}s\"${POLL:+,\"poll\":\"$POLL\"}}"
  wait "$gw"
  note poll <"$work/out" > "$work/poll"
  note naps_per_request <"$work/out" >> "$work/$1.naps"
  note waits_per_request <"$work/out" >> "$work/$1.waits"
}

echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
echo "boxtax $("$BOXTAX" version 2>/dev/null | head -1), $(wrk -v 2>&1 | head -1 || true)" # wrk -v exits 1
echo "rounds: $ROUNDS x ${SECS}s, $CONNS connections, $THREADS threads, pinned: $PIN, ab: $have_ab, own network namespace: ${BENCH_IN_NETNS:-0}"
# drops: packets the connection tracking dropped so far (column "drop", hex, per CPU).
drops() {
  local n=0 v
  [ -r /proc/net/stat/nf_conntrack ] || { echo 0; return; }
  while read -r v; do n=$((n + 16#$v)); done < <(awk 'NR > 1 {print $11}' /proc/net/stat/nf_conntrack)
  echo "$n"
}
drops0=$(drops)
for r in $(seq "$ROUNDS"); do
  gateway
  # The same request as boxtax's, byte for byte: wrk alone sends only Host,
  # and two headers fewer cost the gateway less to parse (ab sends these two).
  timed wrk.cpu "${cli[@]}" wrk -t "$THREADS" -c "$CONNS" -d "${SECS}s" -H "User-Agent: boxtax" -H "Accept: */*" "http://127.0.0.1:$port$path"
  stop
  sample wrk.rps "$(awk '/^Requests\/sec:/ {print $2}' "$work/out")"
  boxtax_load boxtax.cpu true "$THREADS"
  sample boxtax.rps "$(metric requests_per_s <"$work/out")"
  if [ "$have_ab" = 1 ]; then
    gateway
    # ab -t alone stops at 50000 requests: -n lifts that.
    timed ab.cpu "${cli[@]}" ab -q -c "$CONNS" -t "$SECS" -n 100000000 "http://127.0.0.1:$port$path"
    stop
    sample ab.rps "$(awk '/^Requests per second:/ {print $4}' "$work/out")"
    boxtax_load boxtax_close.cpu false 1
    sample boxtax_close.rps "$(metric requests_per_s <"$work/out")"
  fi
  echo "round $r done: wrk $(tail -1 "$work/wrk.rps"), boxtax $(tail -1 "$work/boxtax.rps") req/s$(
    [ "$have_ab" = 1 ] && echo "; keep-alive off: ab $(tail -1 "$work/ab.rps"), boxtax $(tail -1 "$work/boxtax_close.rps")"
  ); $(uptime | sed 's/.*load average/load average/')"
done

dropped=$(( $(drops) - drops0 ))
if [ "$dropped" -gt 0 ]; then
  echo "warning: the host's connection tracking dropped $dropped packets (its table was full): connections waited; NETNS=1 as root avoids it" >&2
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
echo
# paired A B (bench/lib.sh): the median of the rounds' own ratios.
# verdict RATIO GOAL
verdict() { awk -v r="$1" -v g="$2" 'BEGIN {print (r >= g ? "met" : "not met")}'; }
printf '%-36s %12s %12s %8s %8s %s\n' "requests/s (median)" "boxtax" "reference" "ratio" "paired" "goal"
b=$(median boxtax.rps) w=$(median wrk.rps) p=$(paired boxtax.rps wrk.rps)
printf '%-36s %12.0f %12.0f %8s %8.3f %s\n' "keep-alive on, vs wrk -t$THREADS -c$CONNS" "$b" "$w" "$(ratio "$b" "$w")" "$p" ">= 1.0 ($(verdict "$p" 1.0))"
if [ "$have_ab" = 1 ]; then
  b=$(median boxtax_close.rps) a=$(median ab.rps) p=$(paired boxtax_close.rps ab.rps)
  printf '%-36s %12.0f %12.0f %8s %8.3f %s\n' "keep-alive off, vs ab -c$CONNS" "$b" "$a" "$(ratio "$b" "$a")" "$p" ">= 0.9 ($(verdict "$p" 0.9))"
fi
echo "ratio: of the medians; paired: the median of each round's ratio, which the goal is read from"
# cpu_per_request CPUFILE RPSFILE: each round's CPU time per request in
# microseconds (to CPUFILE.per); prints their median.
cpu_per_request() {
  awk -v s="$SECS" '{print $1 * s}' "$work/$2" > "$work/$2.ops"
  per_op "$1" "$2.ops" "$1.per"
  median "$1.per"
}
echo
echo "the client's CPU time per request (user + system, median; lower is cheaper):"
printf '  keep-alive on:  boxtax %.2f us, wrk %.2f us\n' "$(cpu_per_request boxtax.cpu boxtax.rps)" "$(cpu_per_request wrk.cpu wrk.rps)"
if [ "$have_ab" = 1 ]; then
  printf '  keep-alive off: boxtax %.2f us, ab %.2f us\n' "$(cpu_per_request boxtax_close.cpu boxtax_close.rps)" "$(cpu_per_request ab.cpu ab.rps)"
fi
# The ratio lines (issue 40), each the median of the rounds' own ratios.
echo
ratio_lines wrk boxtax.rps wrk.rps boxtax.cpu.per wrk.cpu.per
if [ "$have_ab" = 1 ]; then
  ratio_lines ab boxtax_close.rps ab.rps boxtax_close.cpu.per ab.cpu.per
fi
# boxtax's generator naps on a timer before it sleeps in epoll (poll 0, the
# default), or busy-polls first (poll auto or a duration): its CPU time
# then includes the polling. Either way the gateway need not wake it on
# every answer (docs/gateway.md).
echo "boxtax's poll: $(cat "$work/poll"); its naps per request (median): keep-alive on $(median boxtax.cpu.naps)$(
  [ "$have_ab" = 1 ] && echo ", off $(median boxtax_close.cpu.naps)")"
echo "its waits in epoll per request (median): keep-alive on $(median boxtax.cpu.waits)$(
  [ "$have_ab" = 1 ] && echo ", off $(median boxtax_close.cpu.waits)")"
echo
echo "all rounds (boxtax | reference):"
paste -d' ' "$work/boxtax.rps" "$work/wrk.rps" | awk '{printf "  keep-alive on   %10.0f | %10.0f\n", $1, $2}'
if [ "$have_ab" = 1 ]; then
  paste -d' ' "$work/boxtax_close.rps" "$work/ab.rps" | awk '{printf "  keep-alive off  %10.0f | %10.0f\n", $1, $2}'
fi
