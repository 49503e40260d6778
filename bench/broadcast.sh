#!/usr/bin/env bash
# broadcast.sh: the latency of a paid request through Caddy with and
# without serve_on_broadcast, on a chain that seals a block every period
# (1 s, then 2 s), in one run. Not run in CI.
#
# For each period it starts the dev chain apart (`caddy x402 devnet
# --block-period`, 127.0.0.1:9545), standing for a real chain, and a Caddy
# with bench/broadcast.Caddyfile: /fast/ serves on broadcast, /slow/ waits
# for inclusion (the default). The driver (bench/broadcast) sends paid
# requests to both alternately, each signed before its timer starts and
# preceded by a random pause up to the period (so they meet the blocks at
# every phase), checks every answer (200, a successful PAYMENT-RESPONSE)
# and, afterwards, every transaction's receipt, and prints p50, p90, p99
# and max a route.
#
# Usage: bash bench/broadcast.sh [driver flags...]   e.g. -n 100
# Ports 9500, 9501, 9509 and 9545 must be free. The run's files stay in
# the directory it prints. Exit status 1 if a request or a check failed.
set -euo pipefail
cd "$(dirname "$0")/.."

for port in 9500 9501 9509 9545; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "broadcast: port $port is in use" >&2
		exit 2
	fi
done
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dir=$(mktemp -d /tmp/broadcast.XXXXXX)
echo "broadcast: commit $commit; files in $dir" >&2
bin=${BROADCAST_BIN:-/tmp/broadcast-caddy}
go build -o "$bin" ./xcaddy
go build -o /tmp/broadcast-driver ./bench/broadcast
export HOME=$dir XDG_DATA_HOME=$dir XDG_CONFIG_HOME=$dir
# The dev chain's account #0 (public: the test mnemonic's first key).
export BROADCAST_SETTLER_KEY=ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80

pids=()
cleanup() {
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT

echo "| blocks | route | n | p50 | p90 | p99 | max | failed |"
echo "|---|---|---|---|---|---|---|---|"
status=0
for period in 1 2; do
	export BROADCAST_DIR=$dir/${period}s
	mkdir -p "$BROADCAST_DIR"
	"$bin" x402 devnet --addr 127.0.0.1:9545 --block-period "${period}s" >"$BROADCAST_DIR/devnet.log" 2>&1 &
	chain=$!
	pids=("$chain")
	for _ in $(seq 300); do
		curl -fs -o /dev/null -H 'Content-Type: application/json' \
			-d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' http://127.0.0.1:9545 2>/dev/null && break
		sleep 0.1
	done
	"$bin" run --config bench/broadcast.Caddyfile --adapter caddyfile >"$BROADCAST_DIR/caddy.log" 2>&1 &
	caddy=$!
	pids+=("$caddy")
	for _ in $(seq 300); do
		curl -s -o /dev/null http://127.0.0.1:9501/fast/report 2>/dev/null && break
		if ! kill -0 "$caddy" 2>/dev/null; then
			echo "broadcast: Caddy exited:" >&2
			tail -20 "$BROADCAST_DIR/caddy.log" >&2
			exit 2
		fi
		sleep 0.1
	done
	/tmp/broadcast-driver -period "${period}s" -label "${period} s" "$@" || status=$?
	kill -TERM "$caddy" "$chain"
	wait "$caddy" "$chain" 2>/dev/null || true
	pids=()
done
exit "$status"
