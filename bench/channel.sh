#!/usr/bin/env bash
# channel.sh: the latency of a voucher-paid request (batch-settlement)
# through Caddy, against a free request to the same upstream through the
# same Caddy, in one run (bench/channel.Caddyfile). The driver
# (bench/channel) deposits once, then sends vouchers one at a time, each
# signed before its timer starts, with a free request beside each. Not run
# in CI. With -upstream-delay <duration> the driver serves the upstream
# itself, answering after that delay (an API doing some work), through
# the Caddyfile's /slow/ routes. TMPDIR on a tmpfs (/dev/shm) puts the
# devnet's store, and so the channels, on it: no fsync.
#
# Without flags it runs the driver twice, against an upstream that answers
# at once and then against one doing 1 ms of work (Go's sleep makes it
# about 1.2 ms on a small VM): a voucher's durable hold is written beside
# the upstream's work, so the two ratios tell what a voucher costs over a
# free request with and without work to hide it behind
# (docs/batch-settlement.md, "Latency through Caddy").
#
# Usage: bash bench/channel.sh [driver flags: -n 300, -upstream-delay 2ms]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$bin"' EXIT
go build -o "$bin/caddy" ./xcaddy
go build -o "$bin/channel" ./bench/channel
"$bin/caddy" run --config bench/channel.Caddyfile --adapter caddyfile >"$bin/caddy.log" 2>&1 &
for _ in $(seq 1 300); do
	curl -fs -o /dev/null http://127.0.0.1:9501/free && break
	sleep 0.1 # waiting for Caddy and the devnet to start
done
if [ $# -gt 0 ]; then
	"$bin/channel" -api http://127.0.0.1:9501 "$@"
	exit
fi
echo "== an upstream that answers at once"
"$bin/channel" -api http://127.0.0.1:9501
echo
echo "== an upstream doing 1 ms of work"
"$bin/channel" -api http://127.0.0.1:9501 -upstream-delay 1ms
