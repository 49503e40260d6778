#!/usr/bin/env bash
# memory.sh measures the idle memory of a facilitator-only Caddy with the
# x402 modules (an external chain, no devnet in the process) against a plain
# Caddy of the same binary with no x402 config, in the same run:
#   - a devnet runs apart (`caddy x402 devnet`), as a real chain would;
#   - each Caddy is started, left 10 s, asked GET /supported and POST /verify
#     (garbage), left 5 s more, then read;
#   - RSS is split into file-backed pages (the executable's code and
#     read-only data, shared and reclaimable) and anonymous memory (heap,
#     stacks, runtime), from /proc/<pid>/smaps_rollup; heap is Go's
#     HeapInuse from Caddy's /debug/vars.
#
# The binary runs from a copy on tmpfs (/dev/shm), whose pages are 4 KiB,
# so the file-backed part counts the pages that were touched. Run in place
# from ext4 or XFS with large folios (Linux 6.16+ for ext4), the same binary
# maps much of its page cache in 2 MiB pieces, and its file-backed RSS then
# depends on how the file entered the page cache: two copies of one binary
# differed by 17 MB. MEMORY_BIN_DIR=<dir> runs it from <dir>.
#
# Two builds of ./xcaddy are measured alternately: the default one, which
# embeds the dev chain (package devnet, go-ethereum's node), and one built
# with -tags nodevnet, which leaves it out, as a production build can. The
# devnet process is the default build's `caddy x402 devnet`.
#
# Usage: bash bench/memory.sh [samples, default 3]
# CADDY_BIN=<binary> measures that binary instead of the two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-3}
dir=$(mktemp -d "${MEMORY_BIN_DIR:-/dev/shm}/caddy-x402-mem.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

go build -o "$dir/caddy" ./xcaddy
if [ -n "${CADDY_BIN:-}" ]; then
	cp "$CADDY_BIN" "$dir/caddy-given"
	bins=(given)
else
	go build -tags nodevnet -o "$dir/caddy-nodevnet" ./xcaddy
	bins=("" nodevnet)
fi

rpc=127.0.0.1:18545
"$dir/caddy" x402 devnet --addr "$rpc" >"$dir/devnet.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	curl -fs -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' "http://$rpc" >/dev/null 2>&1 && break
	sleep 0.2
done

# Test account #0 of the devnet's public test mnemonic settles; its key is
# known to everyone and holds nothing outside the devnet.
export X402_SETTLER_KEY=ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
cat >"$dir/x402.Caddyfile" <<EOF
{
	admin localhost:2999
	x402 {
		network eip155:31337
		rpc http://$rpc
		settler_key {env.X402_SETTLER_KEY}
		asset 0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9 "Devnet USD" 1 6
		store_path $dir/x402.db
	}
}

http://:18080 {
	x402_facilitator
}
EOF
cat >"$dir/plain.Caddyfile" <<EOF
{
	admin localhost:2998
}

http://:18081 {
	respond "ok"
}
EOF

# measure <name> <Caddyfile> <port> <admin port>, with the binary $bin
measure() {
	"$bin" run --config "$2" >"$dir/$1.log" 2>&1 &
	local pid=$!
	pids+=("$pid")
	for _ in $(seq 100); do
		curl -fs "http://localhost:$4/config/" >/dev/null 2>&1 && break
		sleep 0.2
	done
	sleep 10
	curl -s "http://localhost:$3/supported" >/dev/null
	curl -s -H 'content-type: application/json' -d '{"garbage":true}' "http://localhost:$3/verify" >/dev/null
	sleep 5
	local rss anon heap
	rss=$(awk '/^Rss:/ {print $2}' "/proc/$pid/smaps_rollup")
	anon=$(awk '/^Anonymous:/ {print $2}' "/proc/$pid/smaps_rollup")
	heap=$(curl -s "http://localhost:$4/debug/vars" | grep -o '"HeapInuse": *[0-9]*' | grep -o '[0-9]*$')
	printf '%-15s %8.1f %10.1f %10.1f %8.1f\n' "$1" "$(echo "$rss/1024" | bc -l)" \
		"$(echo "($rss-$anon)/1024" | bc -l)" "$(echo "$anon/1024" | bc -l)" "$(echo "$heap/1048576" | bc -l)"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}

for b in "${bins[@]}"; do
	bin=$dir/caddy${b:+-$b}
	init=$(GODEBUG=inittrace=1 "$bin" version 2>&1 >/dev/null | awk '/^init / {n++; b += $8} END {printf "%d packages, %.1f MiB", n, b/1048576}')
	echo "build ${b:-default}: binary $(du -m "$bin" | cut -f1) MiB; package init allocates $init"
done
printf '%-15s %8s %10s %10s %8s\n' caddy "RSS MiB" "file MiB" "anon MiB" "heap MiB"
for _ in $(seq "$samples"); do
	for b in "${bins[@]}"; do
		bin=$dir/caddy${b:+-$b}
		measure "x402${b:+ $b}" "$dir/x402.Caddyfile" 18080 2999
		measure "plain${b:+ $b}" "$dir/plain.Caddyfile" 18081 2998
	done
done
