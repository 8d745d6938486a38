#!/usr/bin/env bash
# ingest-generator: is iot.ingest's device simulator ever the bottleneck of
# what it measures? In one run, alternating ROUNDS times, it measures
#   the devices against the sink    (iot.ingest target=sink: an endpoint that
#                                    answers 201 at once, no nginx, nodes, redis)
#   wrk against the same sink        (Debian's wrk, as many connections as
#                                    devices, POSTing the same 36 bytes)
#   the devices against the system   (target=nginx: nginx, NODES nodes, redis)
# and prints the medians, the simulator's own CPU time (client_cpu_pct, % of
# one CPU) and the ratios. The simulator is not the bottleneck when it drives
# the sink well above the system's rate, and about as fast as wrk does.
#
#   bench/ingest-generator.sh                  # 3 rounds of 5 s, 3000 devices
#   ROUNDS=5 SECS=10 DEVICES=2000 bench/ingest-generator.sh
#
# BOXTAX: the binary (default: bin/boxtax, built with make build if
# missing). Needs wrk, nginx, redis-server and curl. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-5}
DEVICES=${DEVICES:-3000}
NODES=${NODES:-2}
BOXTAX=${BOXTAX:-bin/boxtax}
for tool in wrk curl /usr/sbin/nginx /usr/bin/redis-server; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install wrk curl nginx redis-server" >&2; exit 2; }
done
[ -x "$BOXTAX" ] || make build >/dev/null
ulimit -n "$((DEVICES * 2 + 4096))" 2>/dev/null || true
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "0123456789abcdef0123456789abcdef0123"
wrk.headers["Content-Type"] = "application/octet-stream"
wrk.path = "/devices/dev-1/messages"
LUA
port=$((20000 + RANDOM % 20000))

sample() { echo "$3" >> "$work/$1.$2"; }
median() { sort -g "$work/$1" | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
params() { echo "{\"duration\":\"${SECS}s\",\"devices\":$DEVICES,\"nodes\":$NODES,\"target\":\"$1\"}"; }
serve() { # target: start a server side, wait until it listens
  port=$((port + 1))
  "$BOXTAX" worker --workload iot.ingest --params "$(params "$1")" --serve "127.0.0.1:$port" > "$work/serve.out" &
  for _ in $(seq 100); do grep -q '"key":"listening"' "$work/serve.out" 2>/dev/null && return; sleep 0.1; done
  echo "the $1 server did not listen: $(cat "$work/serve.out")" >&2; exit 1
}
devices() { # target: the device simulator against it, its protocol lines to $work/client.out
  serve "$1"
  "$BOXTAX" worker --workload iot.ingest --params "$(params "$1")" --client "127.0.0.1:$port" > "$work/client.out"
  wait
  sample "$1" rate "$(metric messages_per_s < "$work/client.out")"
  sample "$1" cpu "$(note client_cpu_pct < "$work/client.out")"
}

echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
echo "$(wrk --version 2>&1 | head -1 | cut -c1-40); rounds: $ROUNDS x ${SECS}s, $DEVICES devices, $NODES nodes"
for r in $(seq "$ROUNDS"); do
  devices sink
  serve sink
  wrk -t "$(nproc)" -c "$DEVICES" -d "${SECS}s" -s "$work/post.lua" "http://127.0.0.1:$port" > "$work/wrk.out" 2>&1 || true
  sample wrk rate "$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")"
  curl -s -X POST "http://127.0.0.1:$port/_boxtax/end" > /dev/null
  wait
  devices nginx
  echo "round $r: sink $(tail -1 "$work/sink.rate") msg/s, wrk $(tail -1 "$work/wrk.rate") req/s, system $(tail -1 "$work/nginx.rate") msg/s"
done
s=$(median sink.rate) w=$(median wrk.rate) n=$(median nginx.rate)
printf '\nmedians          messages/s   simulator CPU %% of one CPU\n'
printf 'devices -> sink  %10.0f   %s\n' "$s" "$(median sink.cpu)"
printf 'wrk     -> sink  %10.0f\n' "$w"
printf 'devices -> system%10.0f   %s\n' "$n" "$(median nginx.cpu)"
awk -v s="$s" -v w="$w" -v n="$n" 'BEGIN {printf "ratios: devices/wrk on the sink %.2f; sink/system %.2f (how far above the system'"'"'s rate the simulator can go)\n", s/w, s/n}'
