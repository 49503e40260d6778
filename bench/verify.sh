#!/usr/bin/env bash
# verify.sh measures the embedded facilitator's POST /verify the way a
# merchant's paywall calls it: a facilitator-only Caddy (x402_facilitator)
# whose chain is a devnet in a separate process (`caddy x402 devnet`),
# loaded by wrk at 32 connections for a fixed time with distinct, validly
# signed exact payments.
#
# bench/verify (a Go program) signs n payments up front, spread over the
# devnet's funded test accounts #1 to #9, each with a random EIP-3009
# nonce. wrk's two threads take them in turns from the two halves of the
# file (bench/verify/verify.lua), the warm-up from the start of each half
# and the measured run from $warm bodies on, so that no Caddy verifies a
# payment twice (the facilitator remembers the signers it recovered, for
# the settle that follows a verify): each measured verification recovers
# its signature and reads its own payer's balance and nonce on chain. A
# run that went past the end of a half, and so repeated payments, says so.
# /verify spends nothing, so every body stays valid for the whole run.
#
# Each run starts a fresh Caddy (its own store), warms it up for 2 s and
# reports requests/s, the share of answers that were isValid true (every
# answer must be), and the CPU time (user + system, from /proc/PID/stat)
# per request of the Caddy process and of the devnet's. In the same run,
# the same Caddy's plain `respond` of a body the size of /verify's answer,
# to the same POSTs, is the baseline: the HTTP serving the facilitator
# cannot do better than. With VERIFY_BASE=<git revision>, Caddy is also
# built from that revision and the two binaries are run alternately, the
# baseline's verify first.
#
# The machine's cores are shared by wrk, Caddy and the devnet (and whatever
# else runs there); the CPU time per verify varies far less than the
# throughput.
#
# Usage: bash bench/verify.sh [runs, default 3] [duration, default 10s]
#        [connections, default 32] [payments, default 120000]
# Environment: VERIFY_BASE (a git revision to compare with),
# VERIFY_DEVNET_ADDR (default 127.0.0.1:18545), VERIFY_PORT (the first of
# three ports: facilitator, respond, admin; default 18546), VERIFY_DIR
# (default /tmp/caddy-x402-verify), VERIFY_PROFILE=1 (write a 10 s CPU
# profile and the allocations of the same 10 s, of each binary's first
# run, from Caddy's admin endpoint), VERIFY_UPSTREAM=1 (also load upstream
# x402's own facilitator, interop/upstream-facilitator.mjs under node, on
# $port+3, with the same payments, in every round after new's: its
# requests/s and CPU a verify, and ours over its; needs
# `npm ci --prefix interop`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
runs=${1:-3}
dur=${2:-10s}
conns=${3:-32}
payments=${4:-120000}
# warm is where, in each half of the bodies, the measured run starts: past
# what the 2 s warm-up can use.
warm=15000
devnet_addr=${VERIFY_DEVNET_ADDR:-127.0.0.1:18545}
port=${VERIFY_PORT:-18546}
out=${VERIFY_DIR:-/tmp/caddy-x402-verify}
mkdir -p "$out"
hz=$(getconf CLK_TCK)
load() { cut -d' ' -f1-3 /proc/loadavg; }
# ticks PID prints the user and system CPU time PID has used, in ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
free() { ! (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }

for a in "$devnet_addr" "127.0.0.1:$port" "127.0.0.1:$((port + 1))" "127.0.0.1:$((port + 2))" "127.0.0.1:$((port + 3))"; do
	free "$a" || { echo "$a is in use (set VERIFY_DEVNET_ADDR or VERIFY_PORT)"; exit 1; }
done

echo "== building (go $(go env GOVERSION), CGO_ENABLED=$(go env CGO_ENABLED)); load average $(load)"
go build -o "$out/caddy-new" ./xcaddy
go build -o "$out/verify" ./bench/verify
bins=(new)
declare -A bin=([new]="$out/caddy-new")
if [ -n "${VERIFY_BASE:-}" ]; then
	rev=$(git rev-parse --short "$VERIFY_BASE")
	rm -rf "$out/base-src"
	mkdir -p "$out/base-src"
	git archive "$rev" | tar -x -C "$out/base-src"
	(cd "$out/base-src" && go build -o "$out/caddy-base" ./xcaddy)
	grep -q anonymous_verifies_per_second "$out/base-src/caddymodule/"*.go || budget_base=0
	bins=(base new)
	bin[base]="$out/caddy-base"
	echo "base is $rev ($(git log -1 --format=%s "$rev" | cut -c1-60)...), new is the work tree"
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

"$out/caddy-new" x402 devnet --addr "$devnet_addr" >"$out/devnet.log" 2>&1 &
devnet=$!
pids+=("$devnet")
for _ in $(seq 100); do
	curl -fs -o /dev/null -H 'Content-Type: application/json' \
		-d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "http://$devnet_addr" && break
	sleep 0.2
done

echo "== signing $payments distinct payments"
"$out/verify" -rpc "http://$devnet_addr" -n "$payments" -out "$out/bodies.jsonl" -settler-key "$out/settler.key" >"$out/chain.env"
# shellcheck disable=SC1091
. "$out/chain.env"
answer='{"isValid":true,"payer":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}'
upstream=
if [ "${VERIFY_UPSTREAM:-0}" = 1 ]; then
	[ -d interop/node_modules/@x402/evm ] || { echo "VERIFY_UPSTREAM needs npm ci --prefix interop"; exit 1; }
	RPC="http://$devnet_addr" NETWORK=$NETWORK KEY="0x$(cat "$out/settler.key")" PORT=$((port + 3)) \
		node interop/upstream-facilitator.mjs >"$out/upstream.log" 2>&1 &
	upstream=$!
	pids+=("$upstream")
	for _ in $(seq 100); do
		grep -q listening "$out/upstream.log" && break
		sleep 0.2
	done
	head -1 "$out/bodies.jsonl" | curl -fsS -H 'Content-Type: application/json' --data-binary @- \
		"http://127.0.0.1:$((port + 3))/verify" | grep -q '"isValid":true' ||
		{ echo "upstream's facilitator does not verify the first body"; cat "$out/upstream.log"; exit 1; }
fi

# caddyfile PROFILE writes the Caddyfile: the facilitator on $port, the
# respond baseline on $port+1, and Caddy's admin endpoint (for pprof) on
# $port+2 if PROFILE is 1.
caddyfile() {
	local admin="admin off" budget
	[ "$1" = 1 ] && admin="admin 127.0.0.1:$((port + 2))"
	# A build from before the anonymous /verify budget (b4e0e8c's parents
	# back to c1c863c, the commit issue 43 was filed against) knows neither
	# option and has no budget to lift.
	budget="verifies_per_minute -1
		anonymous_verifies_per_second -1"
	[ "$2" = 0 ] && budget=""
	cat <<EOF
{
	$admin
	persist_config off
	auto_https off
	x402 {
		network $NETWORK
		rpc http://$devnet_addr
		settler_key {file.$out/settler.key}
		store_path $out/store.db
		asset $TOKEN "$TOKEN_NAME" $TOKEN_VERSION 6
	}
}

http://127.0.0.1:$port {
	# wrk is one client: the anonymous /verify budget is off for the bench.
	x402_facilitator {
		$budget
	}
}

http://127.0.0.1:$((port + 1)) {
	header Content-Type application/json
	respond \`$answer\` 200
}
EOF
}

# measure NAME URL PID: wrk on URL; prints "req/s valid-share us-per-request
# devnet-us-per-request" and keeps wrk's output.
measure() {
	local t0 d0 t1 d1
	BODIES=$out/bodies.jsonl OFFSET=0 wrk -t2 -c"$conns" -d2s -s bench/verify/verify.lua "$2" >"$out/wrk-warm-$1.txt"
	t0=$(ticks "$3") d0=$(ticks "$devnet")
	BODIES=$out/bodies.jsonl OFFSET=$warm wrk -t2 -c"$conns" -d"$dur" --latency -s bench/verify/verify.lua "$2" >"$out/wrk-$1.txt"
	t1=$(ticks "$3") d1=$(ticks "$devnet")
	# (respond reads no payment: it may go round.)
	if [ "${1%%-*}" != respond ] && grep -q '^wrapped [1-9]' "$out/wrk-warm-$1.txt" "$out/wrk-$1.txt"; then
		echo "$1: a wrk thread went past its half of the $payments bodies and repeated payments; give more (the fourth argument)" >&2
	fi
	awk -v t="$((t1 - t0))" -v d="$((d1 - d0))" -v hz="$hz" '
		/ requests in / {n = $1}
		/^Requests\/sec/ {rps = $2}
		/^valid / {valid = $2}
		/^other / {other = $2}
		END {printf "%.0f %.4f %.1f %.1f\n", rps, valid / (valid + other), t / hz * 1e6 / n, d / hz * 1e6 / n}
	' "$out/wrk-$1.txt"
}

for m in "${bins[@]}" respond ${upstream:+upstream}; do : >"$out/results-$m.txt"; done
echo "== $runs runs: wrk -t2 -c$conns -d$dur, $(nproc) cores; load average $(load)"
printf '%-4s %-8s %9s %7s %13s %13s %7s\n' run binary "req/s" valid "CPU us/req" "devnet us/req" p50
for r in $(seq "$runs"); do
	for m in "${bins[@]}"; do
		profile=0
		[ "$r" = 1 ] && [ "${VERIFY_PROFILE:-0}" = 1 ] && profile=1
		has_budget=1
		[ "$m" = base ] && has_budget=${budget_base:-1}
		caddyfile "$profile" "$has_budget" >"$out/Caddyfile"
		rm -f "$out/store.db"
		"${bin[$m]}" run --config "$out/Caddyfile" --adapter caddyfile >"$out/caddy-$m.log" 2>&1 &
		pid=$!
		pids+=("$pid")
		for _ in $(seq 100); do
			[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health")" = 200 ] && break
			sleep 0.2
		done
		head -1 "$out/bodies.jsonl" | curl -fsS -H 'Content-Type: application/json' --data-binary @- \
			"http://127.0.0.1:$port/verify" | grep -q '"isValid":true' ||
			{ echo "$m: the first body does not verify"; cat "$out/caddy-$m.log"; exit 1; }
		if [ "$profile" = 1 ]; then
			(sleep 3 && curl -s -o "$out/cpu-$m.pprof" "http://127.0.0.1:$((port + 2))/debug/pprof/profile?seconds=10") &
			(sleep 3 && curl -s -o "$out/allocs-$m.pprof" "http://127.0.0.1:$((port + 2))/debug/pprof/allocs?seconds=10") &
		fi
		read -r rps valid cpu dcpu < <(measure "$m-$r" "http://127.0.0.1:$port/verify" "$pid")
		echo "$rps $valid $cpu $dcpu" >>"$out/results-$m.txt"
		printf '%-4s %-8s %9.0f %6.2f%% %13.1f %13.1f %7s\n' "$r" "$m" "$rps" "$(echo "$valid * 100" | bc -l)" "$cpu" "$dcpu" \
			"$(awk '$1 == "50%" {print $2}' "$out/wrk-$m-$r.txt")"
		if [ "$m" = new ]; then
			read -r rps valid cpu dcpu < <(measure "respond-$r" "http://127.0.0.1:$((port + 1))/" "$pid")
			echo "$rps $valid $cpu $dcpu" >>"$out/results-respond.txt"
			printf '%-4s %-8s %9.0f %6.2f%% %13.1f %13s %7s\n' "$r" respond "$rps" "$(echo "$valid * 100" | bc -l)" "$cpu" - \
				"$(awk '$1 == "50%" {print $2}' "$out/wrk-respond-$r.txt")"
			if [ -n "$upstream" ]; then
				read -r rps valid cpu dcpu < <(measure "upstream-$r" "http://127.0.0.1:$((port + 3))/verify" "$upstream")
				echo "$rps $valid $cpu $dcpu" >>"$out/results-upstream.txt"
				printf '%-4s %-8s %9.0f %6.2f%% %13.1f %13.1f %7s\n' "$r" upstream "$rps" "$(echo "$valid * 100" | bc -l)" "$cpu" "$dcpu" \
					"$(awk '$1 == "50%" {print $2}' "$out/wrk-upstream-$r.txt")"
			fi
		fi
		kill "$pid"
		wait "$pid" 2>/dev/null || true
	done
done

# summary COLUMN FILE prints the median and the range of a column.
summary() {
	sort -g -k"$1" "$2" | awk -v c="$1" '{v[NR] = $c} END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f (%.1f-%.1f)", m, v[1], v[NR]}'
}
echo "== median (range) of $runs runs; load average $(load)"
for m in "${bins[@]}" respond ${upstream:+upstream}; do
	printf '%-8s req/s %s  valid %s%%  CPU us/req %s' "$m" "$(summary 1 "$out/results-$m.txt")" \
		"$(awk '{s += $2; n++} END {printf "%.2f", s / n * 100}' "$out/results-$m.txt")" "$(summary 3 "$out/results-$m.txt")"
	[ "$m" != respond ] && printf '  devnet CPU us/req %s' "$(summary 4 "$out/results-$m.txt")"
	echo
done
if [ "${#bins[@]}" = 2 ]; then
	# Issue 43's figure: new's CPU a verify over base's, round by round
	# (the two ran alternately), and the median of those ratios.
	ratios=$(paste -d' ' "$out/results-new.txt" "$out/results-base.txt" | awk '{printf "%.3f\n", $3 / $7}')
	printf 'new/base CPU us/req, paired by run: %s (median %s)\n' "$(echo $ratios)" \
		"$(echo "$ratios" | sort -g | awk '{v[NR] = $1} END {printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')"
fi
if [ -n "$upstream" ]; then
	# Ours against upstream's facilitator, round by round: requests/s
	# (ours over theirs) and CPU a verify (theirs over ours).
	paste -d' ' "$out/results-new.txt" "$out/results-upstream.txt" | awk '{
		printf "%.1f %.1f\n", $1 / $5, $7 / $3}' >"$out/ratios-upstream.txt"
	printf 'new against upstream, paired by run: req/s %s; CPU a verify, upstream over new, %s\n' \
		"$(cut -d' ' -f1 "$out/ratios-upstream.txt" | paste -sd' ')" "$(cut -d' ' -f2 "$out/ratios-upstream.txt" | paste -sd' ')"
fi
echo "raw: $out/wrk-*.txt, $out/results-*.txt${VERIFY_PROFILE:+, $out/cpu-*.pprof, $out/allocs-*.pprof}"
