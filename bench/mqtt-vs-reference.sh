#!/usr/bin/env bash
# bench/mqtt-vs-reference.sh: boxtax's MQTT publisher (mqtt.pub's client side)
# against a reference MQTT client, in one run against the same mosquitto on
# loopback, and the ratio of their messages/s.
#
# The reference is Debian's mosquitto_pub (libmosquitto). The seed's own tool,
# krylovsk/mqtt-benchmark, is not on the Go module proxy (403), so it cannot
# be built here. mosquitto_pub offers both ways of publishing:
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
# last acknowledgement, is printed as well). Rounds alternate; the medians
# are compared.
#
# The seed's client (seeds 001/003), krylovsk/mqtt-benchmark, is not on the
# Go module proxy, so this script does not build it; if you have a build, set
# MQTT_BENCHMARK to its path and the one-at-a-time rounds run it too (it
# publishes one message at a time, waiting on each token: -message-interval 0,
# same broker, QoS, payload size, count and clients), timed the same way.
#
# Usage: bench/mqtt-vs-reference.sh            (from the repository root)
# Environment: CLIENTS (1), COUNT per client (20000), QOS (1), PAYLOAD (100),
# ROUNDS (5), MOSQUITTO (the broker; default: on PATH or /usr/sbin/mosquitto),
# MQTT_BENCHMARK (a build of krylovsk/mqtt-benchmark; optional), PIN (0; 1
# pins the broker to CPU 1 and every client to CPU 0 with taskset, as a
# study places a server and its client, the same for every tool).
set -euo pipefail

CLIENTS=${CLIENTS:-1}
COUNT=${COUNT:-20000}
QOS=${QOS:-1}
PAYLOAD=${PAYLOAD:-100}
ROUNDS=${ROUNDS:-5}
MOSQUITTO=${MOSQUITTO:-$(command -v mosquitto || echo /usr/sbin/mosquitto)}
srv=() cli=()
if [ "${PIN:-0}" = 1 ]; then srv=(taskset -c 1) cli=(taskset -c 0); fi

for p in "$MOSQUITTO" mosquitto_pub go python3; do
	command -v "$p" >/dev/null || { echo "needs $p (apt-get install mosquitto mosquitto-clients)" >&2; exit 2; }
done

tmp=$(mktemp -d /tmp/boxtax-mqtt-bench.XXXXXX)
broker_pid=
cleanup() {
	if [ -n "$broker_pid" ]; then
		kill "$broker_pid" 2>/dev/null || true
		wait "$broker_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -trimpath -o "$tmp/boxtax" ./cmd/boxtax

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$tmp/mosquitto.conf" <<EOF
listener $port 127.0.0.1
allow_anonymous true
persistence false
user root
max_queued_messages 1000000
EOF
"${srv[@]}" "$MOSQUITTO" -c "$tmp/mosquitto.conf" >"$tmp/mosquitto.log" 2>&1 &
broker_pid=$!
for _ in $(seq 100); do
	mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench/up -m up 2>/dev/null && break
	sleep 0.05
done

msg=$(head -c "$PAYLOAD" /dev/zero | tr '\0' x)
{ yes "$msg" || true; } | head -n "$COUNT" >"$tmp/lines" # yes ends on SIGPIPE
total=$((CLIENTS * COUNT))
now() { date +%s%N; }

# reference MODE: messages/s of CLIENTS mosquitto_pub processes.
reference() {
	local t0 t1 i
	t0=$(now)
	for ((i = 0; i < CLIENTS; i++)); do
		if [ "$1" = one ]; then
			"${cli[@]}" mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench -q "$QOS" -m "$msg" --repeat "$COUNT" &
		else
			"${cli[@]}" mosquitto_pub -h 127.0.0.1 -p "$port" -t boxtax/bench -q "$QOS" -l <"$tmp/lines" &
		fi
	done
	wait $(jobs -p | grep -v "^$broker_pid\$")
	t1=$(now)
	python3 -c "print($total / (($t1 - $t0) / 1e9))"
}

# seed: messages/s of mqtt-benchmark (CLIENTS clients in one process), by
# process wall time.
seed() {
	local t0 t1 out
	t0=$(now)
	out=$("${cli[@]}" "$MQTT_BENCHMARK" -broker "tcp://127.0.0.1:$port" -clients "$CLIENTS" -count "$COUNT" -qos "$QOS" \
		-size "$PAYLOAD" -message-interval 0 -topic boxtax/bench -quiet -format json 2>/dev/null)
	t1=$(now)
	ok=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["successes"])')
	[ "$ok" = "$total" ] || { echo "mqtt-benchmark published $ok of $total messages" >&2; exit 1; }
	python3 -c "print($total / (($t1 - $t0) / 1e9))"
}

# boxtax INFLIGHT: messages/s by process wall time, and boxtax's own figure.
boxtax() {
	local t0 t1 out
	t0=$(now)
	out=$("${cli[@]}" "$tmp/boxtax" worker --workload mqtt.pub --client "127.0.0.1:$port" \
		--params "{\"clients\":$CLIENTS,\"messages\":$COUNT,\"qos\":$QOS,\"payload\":$PAYLOAD,\"inflight\":$1,\"duration\":\"10m\",\"topic\":\"boxtax/bench\"}")
	t1=$(now)
	own=$(echo "$out" | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("metric") == "msgs_per_s": print(m["value"])
    if m.get("kind") == "error": sys.exit("boxtax: " + m["text"])')
	acked=$(echo "$out" | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("key") == "messages_acknowledged": print(m["text"])')
	[ "$acked" = "$total" ] || { echo "boxtax acknowledged $acked of $total messages" >&2; exit 1; }
	python3 -c "print($total / (($t1 - $t0) / 1e9), $own)"
}

median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

echo "mosquitto $("$MOSQUITTO" -h 2>&1 | head -1 | sed 's/.*version //'), QoS $QOS, $PAYLOAD B payload, $CLIENTS client(s) x $COUNT messages, $ROUNDS rounds, pinned: ${PIN:-0}"
printf '%-14s %16s %16s %18s %7s\n' mode mosquitto_pub boxtax "boxtax (own)" ratio
for mode in one window; do
	inflight=1
	[ "$mode" = window ] && inflight=20
	ref=() box=() own=() sd=()
	for ((r = 0; r < ROUNDS; r++)); do
		ref+=("$(reference "$mode")")
		if [ -n "${MQTT_BENCHMARK:-}" ] && [ "$mode" = one ]; then
			sd+=("$(seed)")
		fi
		read -r b o <<<"$(boxtax "$inflight")"
		box+=("$b")
		own+=("$o")
	done
	mr=$(median "${ref[@]}")
	mb=$(median "${box[@]}")
	mo=$(median "${own[@]}")
	label="one at a time"
	[ "$mode" = window ] && label="window of 20"
	python3 -c "print('%-14s %12.0f msg/s %12.0f msg/s %14.0f msg/s %6.2fx' % ('$label', $mr, $mb, $mo, $mb / $mr))"
	if [ "${#sd[@]}" -gt 0 ]; then
		ms=$(median "${sd[@]}")
		python3 -c "print('%-14s %12.0f msg/s %12.0f msg/s %14s       %6.2fx   (mqtt-benchmark, the seed\'s client, in the first column)' % ('$label', $ms, $mb, '', $mb / $ms))"
	fi
done
echo "ratio: boxtax / the reference, both timed from launch to exit (medians); goal >= 1"
