#!/usr/bin/env bash
# bench/mqtt-vs-reference.sh: boxtax's MQTT publisher (mqtt.pub's client side)
# against a reference MQTT client, in one run against the same mosquitto on
# loopback: the ratio of their messages/s and of the CPU time (user +
# system) the client alone spent per message (issue 40).
#
# The reference is mosquitto_pub (Debian's mosquitto-clients, libmosquitto),
# standing in for the seed's client: krylovsk/mqtt-benchmark, which issue 40
# names, is not a Debian package and not on the Go module proxy (403), so
# this script cannot install or build it (MQTT_BENCHMARK below runs a build
# you have). mosquitto_pub is not the same kind of client: with --repeat it
# busy-polls (docs/design/010-probe-cost.md: 99 % of a CPU), so its CPU per
# message is not what a sleeping client such as mqtt-benchmark spends. It
# offers both ways of publishing:
#
#   one at a time  mosquitto_pub -m MSG --repeat COUNT: the next repeat goes
#                  out only after the previous one's on_publish callback,
#                  i.e. its PUBACK (pub_client.c), as mqtt-benchmark waits on
#                  each token. boxtax: inflight 1 (its default).
#   window of 20   mosquitto_pub -l < COUNT lines: libmosquitto keeps up to
#                  20 QoS 1 messages in flight (its default) and the program
#                  disconnects after the last one's PUBACK. boxtax: inflight 20.
#
# Same broker, QoS, payload, message count and number of clients (CLIENTS
# processes of mosquitto_pub at once against CLIENTS connections of one
# boxtax client). Both are timed the same way, from launching the
# process(es) to the last one's exit, so process start, connecting and
# disconnecting count for both (boxtax's own msgs_per_s, first publish to
# last acknowledgement, is printed as well). Each client's CPU time is its
# process's (GNU time; the sum over the CLIENTS processes of mosquitto_pub),
# the broker's not counted. Rounds alternate; the medians are compared, and
# the ratio lines (`ratio ops_per_s REF X`, `ratio cpu_per_op REF X`, boxtax
# over the reference) are the median of the rounds' own ratios.
#
# MQTT_BENCHMARK: the path of a build of krylovsk/mqtt-benchmark (seeds
# 001/003); the one-at-a-time rounds then run it too (one message at a time,
# waiting on each token: -message-interval 0, same broker, QoS, payload
# size, count and clients), timed the same way.
#
# Usage: bench/mqtt-vs-reference.sh            (from the repository root)
# Environment: CLIENTS (1), COUNT per client (20000), QOS (1), PAYLOAD (100),
# ROUNDS (5), MOSQUITTO (the broker; default: on PATH or /usr/sbin/mosquitto),
# MQTT_BENCHMARK (a build of krylovsk/mqtt-benchmark; optional), PIN (0; 1
# pins the broker to CPU 1 and every client to CPU 0 with taskset, as a
# study places a server and its client, the same for every tool), BOXTAX
# (the binary; default: bin/boxtax, built with make build if missing).
# Needs GNU time (apt-get install time).
set -Eeuo pipefail
trap 'echo "$0: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR
cd "$(dirname "$0")/.."
. bench/lib.sh

CLIENTS=${CLIENTS:-1}
COUNT=${COUNT:-20000}
QOS=${QOS:-1}
PAYLOAD=${PAYLOAD:-100}
ROUNDS=${ROUNDS:-5}
BOXTAX=${BOXTAX:-bin/boxtax}
MOSQUITTO=${MOSQUITTO:-$(command -v mosquitto || echo /usr/sbin/mosquitto)}
srv=() cli=()
if [ "${PIN:-0}" = 1 ]; then srv=(taskset -c 1) cli=(taskset -c 0); fi

for p in "$MOSQUITTO" mosquitto_pub python3 /usr/bin/time; do
	command -v "$p" >/dev/null || { echo "needs $p (apt-get install mosquitto mosquitto-clients time)" >&2; exit 2; }
done
[ -x "$BOXTAX" ] || make build >/dev/null

work=$(mktemp -d /tmp/boxtax-mqtt-bench.XXXXXX)
broker_pid=
cleanup() {
	if [ -n "$broker_pid" ]; then
		kill "$broker_pid" 2>/dev/null || true
		wait "$broker_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$work/mosquitto.conf" <<EOC
listener $port 127.0.0.1
allow_anonymous true
persistence false
user root
max_queued_messages 1000000
EOC
"${srv[@]}" "$MOSQUITTO" -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker_pid=$!
for _ in $(seq 100); do
	mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench/up -m up 2>/dev/null && break
	sleep 0.05
done

msg=$(head -c "$PAYLOAD" /dev/zero | tr '\0' x)
{ yes "$msg" || true; } | head -n "$COUNT" >"$work/lines" # yes ends on SIGPIPE
total=$((CLIENTS * COUNT))
now() { date +%s%N; }
# rate T0 T1: messages/s of the whole load from launch (T0) to exit (T1), in ns.
rate() { awk -v n="$total" -v a="$1" -v b="$2" 'BEGIN {print n / ((b - a) / 1e9)}'; }
# cpu_us FILE: the CPU microseconds per message of one round's CPU seconds
# (the last figure in $work/FILE).
cpu_us() { tail -1 "$work/$1" | awk -v n="$total" '{print $1 * 1e6 / n}'; }

# reference MODE KEY: CLIENTS mosquitto_pub processes; their messages/s to
# KEY.rate, their CPU time per message to KEY.cpu_us.
reference() {
	local t0 t1 i
	rm -f "$work"/ref.time.*
	t0=$(now)
	for ((i = 0; i < CLIENTS; i++)); do
		if [ "$1" = one ]; then
			/usr/bin/time -f '%U %S' -o "$work/ref.time.$i" "${cli[@]}" mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench -q "$QOS" -m "$msg" --repeat "$COUNT" &
		else
			/usr/bin/time -f '%U %S' -o "$work/ref.time.$i" "${cli[@]}" mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench -q "$QOS" -l <"$work/lines" &
		fi
	done
	wait $(jobs -p | grep -v "^$broker_pid\$")
	t1=$(now)
	sample "$2.rate" "$(rate "$t0" "$t1")"
	cat "$work"/ref.time.* | awk '{s += $1 + $2} END {print s}' >> "$work/$2.cpu"
	sample "$2.cpu_us" "$(cpu_us "$2.cpu")"
}

# seed KEY: mqtt-benchmark (CLIENTS clients in one process), as reference.
seed() {
	local t0 t1 ok
	t0=$(now)
	timed "$1.cpu" "${cli[@]}" "$MQTT_BENCHMARK" -broker "tcp://127.0.0.1:$port" -clients "$CLIENTS" -count "$COUNT" -qos "$QOS" \
		-size "$PAYLOAD" -message-interval 0 -topic boxtax/bench -quiet -format json
	t1=$(now)
	ok=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["successes"])' <"$work/out")
	[ "$ok" = "$total" ] || { echo "mqtt-benchmark published $ok of $total messages" >&2; exit 1; }
	sample "$1.rate" "$(rate "$t0" "$t1")"
	sample "$1.cpu_us" "$(cpu_us "$1.cpu")"
}

# boxtax INFLIGHT KEY: boxtax's publisher, as reference; boxtax's own
# msgs_per_s (first publish to last acknowledgement) to KEY.own.
boxtax() {
	local t0 t1 acked
	t0=$(now)
	timed "$2.cpu" "${cli[@]}" "$BOXTAX" worker --workload mqtt.pub --client "127.0.0.1:$port" \
		--params "{\"clients\":$CLIENTS,\"messages\":$COUNT,\"qos\":$QOS,\"payload\":$PAYLOAD,\"inflight\":$1,\"duration\":\"10m\",\"topic\":\"boxtax/bench\"}"
	t1=$(now)
	acked=$(note messages_acknowledged <"$work/out")
	[ "$acked" = "$total" ] || { echo "boxtax acknowledged ${acked:-none} of $total messages: $(cat "$work/out" "$work/err")" >&2; exit 1; }
	sample "$2.rate" "$(rate "$t0" "$t1")"
	sample "$2.own" "$(metric msgs_per_s <"$work/out")"
	sample "$2.cpu_us" "$(cpu_us "$2.cpu")"
}

echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/')"
if [ -n "${MQTT_BENCHMARK:-}" ]; then
	echo "references: mosquitto_pub and mqtt-benchmark ($MQTT_BENCHMARK), the seed's client"
else
	echo "reference: mosquitto_pub, standing in for mqtt-benchmark (the seed's client is not a Debian package; set MQTT_BENCHMARK to a build of it)"
fi
echo "mosquitto $({ "$MOSQUITTO" -h 2>&1 || true; } | head -1 | sed 's/.*version //'), QoS $QOS, $PAYLOAD B payload, $CLIENTS client(s) x $COUNT messages, $ROUNDS rounds, pinned: ${PIN:-0}"
for mode in one window; do
	inflight=1
	[ "$mode" = window ] && inflight=20
	for ((r = 1; r <= ROUNDS; r++)); do
		reference "$mode" "$mode.ref"
		if [ -n "${MQTT_BENCHMARK:-}" ] && [ "$mode" = one ]; then
			seed "$mode.seed"
		fi
		boxtax "$inflight" "$mode.box"
		echo "$mode, round $r: mosquitto_pub $(tail -1 "$work/$mode.ref.rate") msg/s $(tail -1 "$work/$mode.ref.cpu_us") us, boxtax $(tail -1 "$work/$mode.box.rate") msg/s $(tail -1 "$work/$mode.box.cpu_us") us; $(uptime | sed 's/.*load average/load average/')"
	done
done

echo
printf '%-14s %16s %16s %18s %7s %12s %12s\n' mode mosquitto_pub boxtax "boxtax (own)" ratio "CPU/msg ref" "CPU/msg box"
for mode in one window; do
	label="one at a time"
	[ "$mode" = window ] && label="window of 20"
	mr=$(median "$mode.ref.rate") mb=$(median "$mode.box.rate") mo=$(median "$mode.box.own")
	awk -v l="$label" -v r="$mr" -v b="$mb" -v o="$mo" -v cr="$(median "$mode.ref.cpu_us")" -v cb="$(median "$mode.box.cpu_us")" \
		'BEGIN {printf "%-14s %12.0f msg/s %12.0f msg/s %14.0f msg/s %6.2fx %9.2f us %9.2f us\n", l, r, b, o, b / r, cr, cb}'
	if [ -s "$work/$mode.seed.rate" ]; then
		awk -v l="$label" -v r="$(median "$mode.seed.rate")" -v b="$mb" -v cr="$(median "$mode.seed.cpu_us")" -v cb="$(median "$mode.box.cpu_us")" \
			'BEGIN {printf "%-14s %12.0f msg/s %12.0f msg/s %14s       %6.2fx %9.2f us %9.2f us  (mqtt-benchmark, the seed\x27s client, in the first column)\n", l, r, b, "", b / r, cr, cb}'
	fi
done
echo "ratio: boxtax / the reference, both timed from launch to exit (medians); goal >= 1"
echo "CPU/msg: the client's CPU time (user + system) per message, median; lower is cheaper"
echo
ratio_lines mosquitto_pub one.box.rate one.ref.rate one.box.cpu_us one.ref.cpu_us
ratio_lines mosquitto_pub_window20 window.box.rate window.ref.rate window.box.cpu_us window.ref.cpu_us
if [ -s "$work/one.seed.rate" ]; then
	ratio_lines mqtt-benchmark one.box.rate one.seed.rate one.box.cpu_us one.seed.cpu_us
fi
