#!/usr/bin/env bash
# paid.sh: the latency of a paid request through Caddy with caddy-x402, on
# the embedded dev chain (bench/paid.Caddyfile: `x402 { network devnet }`,
# the chain in Caddy's process, sealing on demand, as Caddyfile.example
# runs it). Not run in CI.
#
# The driver (bench/paid) reads the paid route's 402 once, then sends exact
# payments one at a time, each signed before its timer starts by one of
# devnet test accounts #1 to #8; it times only the request that carries
# PAYMENT-SIGNATURE (verify, upstream, settle, 200 with PAYMENT-RESPONSE),
# and a free request to the same upstream beside each as the baseline. A
# second figure sends batches of 8 paid requests at once. It checks that
# every paid answer is 200 with a PAYMENT-RESPONSE whose transaction has a
# successful receipt, and that the balances moved by exactly the price of
# each, and splits the paid time by Caddy's logs (access log duration, the
# settlement's took).
#
# Pacing: the devnet seals a block as soon as a transaction arrives, but a
# block's time is at least its parent's plus 1 s, and once the chain's
# clock runs devnet.MaxClockLead (15 s) ahead of the wall clock it seals
# one block a second. Each sequential paid request is a block of its own,
# so more than one a second would, after about 15 of them, time the
# devnet's pacing rather than the server. The driver therefore sends one
# paid request (or batch) a second on average (-interval 1s, each spread
# by ±25%, -jitter, so that requests meet the facilitator's once-a-second
# finality check at every phase, not at one) and, before each, waits
# while the head block's timestamp (eth_getBlockByNumber on the devnet's
# RPC, 127.0.0.1:9445) is 10 s or more ahead of the wall clock
# (-max-lead). A batch of 8 can take up to 8 blocks, so a batch waits for a
# lead under 2 s. The summary says the largest lead seen (it must stay
# under 15 s). A run of the defaults (10 warm-up, 150 timed, 20 batches)
# takes about 4 minutes.
#
# PAID_TRACE=1 puts Caddy's `tracing` on the paid route, with the spans
# written to Caddy's output (OTEL_TRACES_EXPORTER=console), and the summary
# splits the paid request into the paywall's and the facilitator's steps
# (x402.verify, x402.settle, x402.facilitator.*). Tracing costs time of its
# own, so its totals are not the headline figure.
#
# Usage: bash bench/paid.sh [runs, default 1] [driver flags...]
#   e.g. bash bench/paid.sh 3 -n 200
# Each run starts a fresh Caddy (and so a fresh chain). Ports 9400, 9401,
# 9409 (admin) and 9445 (the devnet's RPC) must be free. The run's files
# (Caddy's log, access and payments logs, summaries) stay in the directory
# it prints. Exit status 1 if a paid request failed or a check did not
# hold.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
shift || true

for port in 9400 9401 9409 9445; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "paid: port $port is in use (another paid.sh run?)" >&2
		exit 2
	fi
done

# PAID_COMMIT names the commit of a tree without .git (a git archive, which
# keeps a checkout that others are editing out of the measurement).
commit=${PAID_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ -z "${PAID_COMMIT:-}" ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi
dir=$(mktemp -d /tmp/paid.XXXXXX)
echo "paid: commit $commit; files in $dir" >&2

# PAID_BIN names the binary (default /tmp/paid-caddy), so that builds of
# two trees can be run alternately.
bin=${PAID_BIN:-/tmp/paid-caddy}
go build -o "$bin" ./xcaddy
go build -o /tmp/paid-driver ./bench/paid

caddy_pid=
cleanup() {
	if [ -n "$caddy_pid" ]; then
		kill "$caddy_pid" 2>/dev/null || true
	fi
}
trap cleanup EXIT
# Caddy's own state (autosave, data directory) stays in the run's directory.
export HOME=$dir XDG_DATA_HOME=$dir XDG_CONFIG_HOME=$dir

spans=()
export PAID_TRACING=
if [ "${PAID_TRACE:-}" = 1 ]; then
	export PAID_TRACING=tracing OTEL_TRACES_EXPORTER=console OTEL_BSP_SCHEDULE_DELAY=200
fi

status=0
for run in $(seq "$runs"); do
	export PAID_DIR=$dir/run$run
	mkdir -p "$PAID_DIR"
	"$bin" run --config bench/paid.Caddyfile --adapter caddyfile >"$PAID_DIR/caddy.log" 2>&1 &
	caddy_pid=$!
	# Caddy starts its apps in no set order: the HTTP servers may answer
	# before the x402 app has started the chain, so wait for both.
	for _ in $(seq 300); do
		curl -fs -o /dev/null http://127.0.0.1:9401/free 2>/dev/null &&
			curl -fs -o /dev/null -H 'Content-Type: application/json' \
				-d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' http://127.0.0.1:9445 2>/dev/null &&
			break
		if ! kill -0 "$caddy_pid" 2>/dev/null; then
			echo "paid: Caddy exited:" >&2
			tail -20 "$PAID_DIR/caddy.log" >&2
			exit 2
		fi
		sleep 0.1
	done
	echo "paid: run $run of $runs" >&2
	if [ -n "$PAID_TRACING" ]; then
		spans=(-spans "$PAID_DIR/caddy.log")
	fi
	/tmp/paid-driver -api http://127.0.0.1:9401 -rpc http://127.0.0.1:9445 \
		-access-log "$PAID_DIR/access.log" -payments-log "$PAID_DIR/payments.log" \
		-commit "$commit" "${spans[@]}" "$@" >"$PAID_DIR/summary.md" || status=$?
	cat "$PAID_DIR/summary.md"
	echo
	kill -TERM "$caddy_pid"
	wait "$caddy_pid" 2>/dev/null || true
	caddy_pid=
done
exit "$status"
