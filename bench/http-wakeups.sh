#!/usr/bin/env bash
# http-wakeups: what a load generator's sleeping costs the server. The
# http.gateway gateway (boxtax worker --serve) is pinned to CPU 0 and the
# client to CPU 1, as a study places them, with keep-alive; the clients are
# wrk and boxtax's generator with poll 0 (it sleeps in epoll whenever no
# answer is waiting, as wrk does) and poll auto (it busy-polls up to 50 us
# first), alternating ROUNDS times. For each it prints the requests per
# second, each CPU's busy time per request (from /proc/stat: CPU 0 is the
# gateway's, CPU 1 the client's), the function-call interrupts CPU 1
# received per request (the kernel's wake-up of a thread on an idle CPU,
# sent by the CPU that wakes it: here the gateway's, writing an answer) and
# the host's context switches per request. Medians over the rounds.
#
#   bench/http-wakeups.sh                    # 5 rounds of 4 s, 50 connections
#   ROUNDS=3 SECS=3 CONNS=10 bench/http-wakeups.sh
#
# Needs 2 online CPUs or more, wrk, and bin/boxtax (built with make build if
# missing; BOXTAX: another binary). Loopback only.
set -Eeuo pipefail
trap 'echo "$0: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-4}
CONNS=${CONNS:-50}
BOXTAX=${BOXTAX:-bin/boxtax}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs: the gateway and the client each have one" >&2; exit 2; }
[ -x "$BOXTAX" ] || make build >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
path=/rest/iam/reading

# busy CPU: the CPU's busy time in clock ticks (user, nice, system, irq, softirq).
busy() { awk -v c="cpu$1" '$1 == c {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
# calls CPU: function-call interrupts the CPU received.
calls() { awk -v k=$(($1 + 2)) '$1 == "CAL:" {print $k}' /proc/interrupts; }
switches() { awk '$1 == "ctxt" {print $2}' /proc/stat; }
hz=$(getconf CLK_TCK)

# measure NAME CMD...: a fresh gateway on CPU 0, CMD (the client, on CPU
# 1; {port} in it becomes the gateway's port) for SECS; appends a line
# "rps cpu0 cpu1 calls switches" (per request) to $work/NAME.
measure() {
  local name=$1
  shift
  start_gateway "$work/gateway.out" taskset -c 0
  local cmd=("${@//\{port\}/$port}")
  local b0 b1 c1 s
  b0=$(busy 0) b1=$(busy 1) c1=$(calls 1) s=$(switches)
  taskset -c 1 "${cmd[@]}" >"$work/out" 2>/dev/null
  local rps
  if [ "${cmd[0]}" = wrk ]; then
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/out")
    kill "$gw" 2>/dev/null || true
  else
    rps=$(metric requests_per_s <"$work/out")
  fi
  awk -v r="$rps" -v s="$SECS" -v hz="$hz" -v d0=$(($(busy 0) - b0)) -v d1=$(($(busy 1) - b1)) \
    -v c=$(($(calls 1) - c1)) -v x=$(($(switches) - s)) \
    'BEGIN {n = r * s; printf "%.0f %.2f %.2f %.3f %.3f\n", r, d0 / hz * 1e6 / n, d1 / hz * 1e6 / n, c / n, x / n}' >>"$work/$name"
  wait "$gw" 2>/dev/null || true
}
boxtax() {
  GOMAXPROCS=1 measure "$1" "$BOXTAX" worker --workload http.gateway --client '127.0.0.1:{port}' \
    --params "{\"clients\":$CONNS,\"keepalive\":true,\"duration\":\"${SECS}s\",\"poll\":\"$2\"}"
}

echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
echo "rounds: $ROUNDS x ${SECS}s, $CONNS connections, keep-alive, gateway on CPU 0, client on CPU 1"
for r in $(seq "$ROUNDS"); do
  measure wrk wrk -t 1 -c "$CONNS" -d "${SECS}s" -H "User-Agent: boxtax" -H "Accept: */*" "http://127.0.0.1:{port}$path"
  boxtax sleeps 0
  boxtax polls auto
  echo "round $r done: wrk $(cut -d' ' -f1 "$work/wrk" | tail -1), boxtax poll 0 $(cut -d' ' -f1 "$work/sleeps" | tail -1), poll auto $(cut -d' ' -f1 "$work/polls" | tail -1) requests/s"
done

# col FILE N: the median of column N.
col() { cut -d' ' -f"$2" "$work/$1" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo
printf '%-20s %10s %16s %16s %18s %16s\n' client "requests/s" "gateway CPU/req" "client CPU/req" "wake-up IPIs/req" "switches/req"
for c in wrk:wrk sleeps:"boxtax, poll 0" polls:"boxtax, poll auto"; do
  f=${c%%:*}
  printf '%-20s %10.0f %13.2f us %13.2f us %18.3f %16.3f\n' "${c#*:}" "$(col "$f" 1)" "$(col "$f" 2)" "$(col "$f" 3)" "$(col "$f" 4)" "$(col "$f" 5)"
done
echo "medians of $ROUNDS rounds; CPU time per request from /proc/stat (the client's includes its polling); wake-up IPIs: function-call interrupts CPU 1 received"
