#!/usr/bin/env bash
# soak.sh: a long run of one Caddy with caddy-x402 (bench/soak.Caddyfile),
# to show that it stays healthy over time. Not run in CI.
#
# The dev chain runs out of process (`caddy x402 devnet`), so that the
# Caddy process's memory and goroutines are Caddy's alone (the embedded
# chain keeps every block in memory and would grow with the run), and Caddy
# is configured for it as for a real chain. It seals a block every second
# (SOAK_BLOCK_PERIOD, default 1s); 0 seals on demand, as the demo does.
# (Under sustained load on-demand sealing used to deadlock: the seal loop
# read one new-transaction event per block and waited in TxPool.Sync while
# the pool waited to hand it the 257th event; fixed in fb59c8b. Two
# 20-minute on-demand runs at 06ab735 passed every invariant, about 19,700
# payments each. At 40 operations/s the blocks put the chain's clock
# devnet.MaxClockLead ahead, and from then on the devnet seals about a
# block a second: 1,207 blocks in 20 minutes, paid p50 550-620 ms.) The load
# driver (bench/soak)
# mixes free requests, exact and aa-native payments, replays, racing
# duplicates, a deliberate upstream fault and malformed requests at a
# steady rate; samples Caddy's RSS, goroutines and fds; and at the end
# checks on chain that every payment that bought a response settled
# exactly once. It prints a Markdown summary; the exit status is 1 if an
# invariant failed.
#
# Usage: bash bench/soak.sh [duration, default 20m] [workers, default 32]
#        [operations/s, default 40]
# Ports 9300-9303, 9309 (admin) and 9345 (chain) must be free. The run's
# files (Caddy and devnet logs, store, payments log, Caddy's goroutine
# profiles, summary) stay in the directory it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-20m}
workers=${2:-32}
rate=${3:-40}

for port in 9300 9301 9302 9303 9309 9345; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "soak: port $port is in use (another soak run?)" >&2
		exit 2
	fi
done

# SOAK_COMMIT names the commit of a tree without .git (a git archive).
commit=${SOAK_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
if [ -z "${SOAK_COMMIT:-}" ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit (with uncommitted changes)"
fi
export SOAK_DIR
SOAK_DIR=$(mktemp -d /tmp/soak.XXXXXX)
echo "soak: commit $commit; files in $SOAK_DIR" >&2

go build -o /tmp/soak-caddy ./xcaddy
go build -o /tmp/soak-driver ./bench/soak

pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
}
trap cleanup EXIT
# Caddy's own state (autosave, data directory) stays in the run's directory.
export HOME=$SOAK_DIR XDG_DATA_HOME=$SOAK_DIR XDG_CONFIG_HOME=$SOAK_DIR

/tmp/soak-caddy x402 devnet --addr 127.0.0.1:9345 --block-period "${SOAK_BLOCK_PERIOD:-1s}" >"$SOAK_DIR/devnet.log" 2>&1 &
devnet_pid=$!
pids+=("$devnet_pid")
export SOAK_RPC=http://127.0.0.1:9345
for _ in $(seq 100); do
	curl -fs -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$SOAK_RPC" >/dev/null 2>&1 && break
	sleep 0.1
done

# The devnet's settler and paymaster signer (public test keys, derived
# from its mnemonic), a paymaster key made in a fresh store (--address:
# never through another Caddy's admin API), and a fresh merchant.
eval "$(/tmp/soak-driver env)"
export SOAK_SETTLER_KEY SOAK_PM_SIGNER_KEY
export SOAK_PM_KEY
SOAK_PM_KEY=$(/tmp/soak-caddy x402 key create --address 127.0.0.1:9309 --store "$SOAK_DIR/x402.db" --init \
	--project soak --scopes paymaster:read,paymaster:sponsor 2>/dev/null | head -1)
export SOAK_PAY_TO
SOAK_PAY_TO=0x$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')

/tmp/soak-caddy run --config bench/soak.Caddyfile --adapter caddyfile >"$SOAK_DIR/caddy.log" 2>&1 &
caddy_pid=$!
pids+=("$caddy_pid")
for _ in $(seq 200); do
	curl -fs http://127.0.0.1:9302/health >/dev/null 2>&1 && break
	if ! kill -0 "$caddy_pid" 2>/dev/null; then
		echo "soak: Caddy exited:" >&2
		tail -20 "$SOAK_DIR/caddy.log" >&2
		exit 2
	fi
	sleep 0.1
done

# The driver runs in the background, so that an interrupt reaches it at
# once: it then stops the load, checks what was done and reports.
/tmp/soak-driver -duration "$dur" -concurrency "$workers" -rate "$rate" \
	-caddy-pid "$caddy_pid" -devnet-pid "$devnet_pid" -pay-to "$SOAK_PAY_TO" \
	-rpc "$SOAK_RPC" -store "$SOAK_DIR/x402.db" -payments-log "$SOAK_DIR/payments.log" -out "$SOAK_DIR" -commit "$commit" -devnet "out of process (caddy x402 devnet, a block every ${SOAK_BLOCK_PERIOD:-1s})" \
	>"$SOAK_DIR/summary.md" &
driver_pid=$!
pids+=("$driver_pid")
trap 'kill -TERM "$driver_pid" 2>/dev/null || true' INT TERM
status=0
wait "$driver_pid" || status=$?
while kill -0 "$driver_pid" 2>/dev/null; do
	wait "$driver_pid" || status=$?
done
trap - INT TERM
cat "$SOAK_DIR/summary.md"

# A graceful stop, within the grace period.
kill -TERM "$caddy_pid"
stopped=no
for _ in $(seq 300); do
	if ! kill -0 "$caddy_pid" 2>/dev/null; then
		stopped=yes
		break
	fi
	sleep 0.1
done
wait "$caddy_pid" 2>/dev/null || true

# Caddy's log: warnings and errors by message.
echo
echo "### Caddy log ($SOAK_DIR/caddy.log)"
echo
echo "Stopped by SIGTERM within 30 s: $stopped."
echo
echo '| level | message | count |'
echo '|---|---|--:|'
grep -E '"level":"(warn|error|panic|fatal)"' "$SOAK_DIR/caddy.log" |
	sed -E 's/.*"level":"([a-z]+)".*"msg":"([^"]*)".*/\1|\2/' | sort | uniq -c | sort -rn | head -20 |
	awk '{n=$1; $1=""; sub(/^ /, ""); split($0, f, "|"); printf "| %s | %s | %d |\n", f[1], f[2], n}'
if grep -qE '"level":"(panic|fatal)"|^panic:|goroutine [0-9]+ \[running\]' "$SOAK_DIR/caddy.log"; then
	echo "soak: Caddy panicked; see $SOAK_DIR/caddy.log" >&2
	status=1
fi
if [ "$stopped" != yes ]; then
	echo "soak: Caddy did not stop within 30 s of SIGTERM" >&2
	status=1
fi
exit "$status"
