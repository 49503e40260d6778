#!/usr/bin/env bash
# cgo.sh compares Caddy with x402 built with CGO_ENABLED=1 (go-ethereum's
# crypto on the bundled C libsecp256k1) against CGO_ENABLED=0 (its pure-Go
# fallback, decred's secp256k1), both with examples/Dockerfile's flags:
#   (a) the secp256k1 operations of a payment, in process: the benchmarks of
#       bench/cgo (Ecrecover, SigToPub, Sign, and Keccak256 as the control)
#       and facilitator/exact's VerifyOffline, each test binary built both
#       ways and run alternately with a fixed iteration count on one P;
#   (b) POST /verify of each caddy binary (bench/cgo/verify.Caddyfile: the
#       facilitator on its embedded devnet), loaded with wrk, alternately.
# Both report the CPU time per operation (user + system of the benchmark's
# process) next to the wall-time figures (go test's ns/op, wrk's
# verifies/s): on a machine busy with other work, /verify's CPU time per
# request varies far less than its throughput.
# Each figure is the median of the runs; the table gives the cgo build's
# speed-up over the pure-Go one. Keccak256 does not touch secp256k1, so its
# speed-up should be 1.00x: how far it is off shows the noise. The raw
# go test output is kept for benchstat.
# Usage: bash bench/cgo.sh [runs, default 5] [wrk duration, default 10s]
#        [wrk connections, default 32]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
command -v "$(go env CC)" >/dev/null || { echo "cgo needs a C compiler: apt-get install gcc"; exit 1; }
runs=${1:-5}
dur=${2:-10s}
conns=${3:-32}
out=${CGO_BENCH_DIR:-/tmp/caddy-x402-cgo}
mkdir -p "$out"
# examples/Dockerfile's build flags.
flags=(-trimpath -ldflags=-s\ -w)
modes=(purego cgo)
cgo() { if [ "$1" = cgo ]; then echo 1; else echo 0; fi; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "== building into $out (go $(go env GOVERSION), CC $(go env CC)); load average $(load)"
for m in "${modes[@]}"; do
	CGO_ENABLED=$(cgo "$m") go build "${flags[@]}" -o "$out/caddy-$m" ./xcaddy
	CGO_ENABLED=$(cgo "$m") go test -c -trimpath -o "$out/secp-$m.test" ./bench/cgo
	CGO_ENABLED=$(cgo "$m") go test -c -trimpath -o "$out/exact-$m.test" ./facilitator/exact
	printf '%-13s %s, %s bytes, %s\n' "caddy-$m" \
		"$(go version -m "$out/caddy-$m" | awk '$2 ~ /^CGO_ENABLED=/ {print $2}')" \
		"$(stat -c %s "$out/caddy-$m")" \
		"$(ldd "$out/caddy-$m" 2>&1 | awk '/libc.so/ {print "links " $1; f = 1} END {if (!f) print "static"}')"
done
go build -o "$out/verifybody" ./bench/cgo/verifybody
# The test binaries keep their symbols: the cgo one must hold
# libsecp256k1's recovery, the pure-Go one decred's.
go tool nm "$out/secp-cgo.test" | grep ' secp256k1_ecdsa_recover$' >/dev/null ||
	{ echo "secp-cgo.test does not link libsecp256k1"; exit 1; }
go tool nm "$out/secp-purego.test" | grep 'decred/dcrd/dcrec/secp256k1' >/dev/null ||
	{ echo "secp-purego.test does not use decred's secp256k1"; exit 1; }
echo "secp-cgo.test links libsecp256k1 (secp256k1_ecdsa_recover); secp-purego.test uses decred's secp256k1"

# The benchmarks: test binary, name, iterations per run (about a second).
benchmarks=(
	"secp Ecrecover 10000"
	"secp SigToPub 10000"
	"secp Sign 30000"
	"exact VerifyOffline 10000"
	"secp Keccak256 1000000"
)
TIMEFORMAT='%U %S'
echo "== (a) in process: $runs runs of each build, alternating"
for m in "${modes[@]}"; do : >"$out/bench-$m.txt"; : >"$out/cpu-$m.txt"; done
for _ in $(seq "$runs"); do
	for b in "${benchmarks[@]}"; do
		read -r bin name n <<<"$b"
		for m in "${modes[@]}"; do
			t=$({ time "$out/$bin-$m.test" -test.run '^$' -test.bench "^Benchmark$name\$" \
				-test.benchtime "${n}x" -test.cpu 1 -test.benchmem >>"$out/bench-$m.txt"; } 2>&1)
			echo "$name $(echo "$t" | awk -v n="$n" '{print ($1 + $2) * 1e9 / n}')" >>"$out/cpu-$m.txt"
		done
	done
done

echo "== (b) POST /verify of each binary: wrk -t2 -c$conns -d$dur, $runs runs, alternating"
hz=$(getconf CLK_TCK)
# ticks PID prints the user and system CPU time PID has used, in ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for m in "${modes[@]}"; do : >"$out/rps-$m.txt"; done
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT
for r in $(seq "$runs"); do
	for m in "${modes[@]}"; do
		"$out/caddy-$m" run --config bench/cgo/verify.Caddyfile >"$out/caddy-$m.log" 2>&1 &
		pid=$!
		for _ in $(seq 100); do
			[ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9120/paid/x)" = 402 ] && break
			sleep 0.2
		done
		"$out/verifybody" -url http://127.0.0.1:9120/paid/x >"$out/verify.json"
		curl -fsS -H 'Content-Type: application/json' --data-binary @"$out/verify.json" \
			http://127.0.0.1:9121/verify | grep -q '"isValid":true' ||
			{ echo "caddy-$m: the body does not verify"; exit 1; }
		BODY=$out/verify.json wrk -t2 -c"$conns" -d2s -s bench/cgo/verify.lua http://127.0.0.1:9121/verify >/dev/null
		t0=$(ticks "$pid")
		BODY=$out/verify.json wrk -t2 -c"$conns" -d"$dur" --latency -s bench/cgo/verify.lua \
			http://127.0.0.1:9121/verify >"$out/wrk-$m-$r.txt"
		t1=$(ticks "$pid")
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		pid=
		grep -q '^invalid 0$' "$out/wrk-$m-$r.txt" ||
			{ echo "caddy-$m: some answers were not valid:"; cat "$out/wrk-$m-$r.txt"; exit 1; }
		w=$(awk '/Requests\/sec/ {print $2}' "$out/wrk-$m-$r.txt")
		c=$(awk -v t="$((t1 - t0))" -v hz="$hz" '/ requests in / {print t / hz * 1e9 / $1}' "$out/wrk-$m-$r.txt")
		echo "Verify $c" >>"$out/cpu-$m.txt"
		echo "Verify $w" >>"$out/rps-$m.txt"
		printf 'run %d %-7s %6.0f verifies/s, p50 %s, %4.0f us of CPU per verify\n' "$r" "$m" "$w" \
			"$(awk '$1 == "50%" {print $2}' "$out/wrk-$m-$r.txt")" "$(echo "$c / 1000" | bc -l)"
	done
done

# mid prints the median of the numbers on its input, one a line.
mid() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# cpu NAME MODE prints the median CPU time per op of NAME, in µs.
cpu() { awk -v b="$1" '$1 == b {print $2 / 1000}' "$out/cpu-$2.txt" | mid; }
# wall NAME MODE prints the median ns/op of benchmark NAME, in µs.
wall() { awk -v b="$1" '$1 ~ "^Benchmark" b "(-[0-9]+)?$" {print $3 / 1000}' "$out/bench-$2.txt" | mid; }
ratio() { echo "$1 / $2" | bc -l; }

echo "== cgo (libsecp256k1) against pure Go (decred), $(nproc) cores; load average $(load)"
printf '%-14s %34s   %s\n' "" "CPU time per op (us)" "wall time (us/op, verifies/s)"
printf '%-14s %10s %10s %9s   %10s %10s %9s\n' measurement "pure Go" cgo speed-up "pure Go" cgo speed-up
for b in "${benchmarks[@]}"; do
	read -r _ name _ <<<"$b"
	p=$(cpu "$name" purego) c=$(cpu "$name" cgo) wp=$(wall "$name" purego) wc=$(wall "$name" cgo)
	printf '%-14s %10.2f %10.2f %8.2fx   %10.2f %10.2f %8.2fx\n' "$name" "$p" "$c" "$(ratio "$p" "$c")" "$wp" "$wc" "$(ratio "$wp" "$wc")"
done
p=$(cpu Verify purego) c=$(cpu Verify cgo)
wp=$(awk '{print $2}' "$out/rps-purego.txt" | mid) wc=$(awk '{print $2}' "$out/rps-cgo.txt" | mid)
printf '%-14s %10.2f %10.2f %8.2fx   %9.0f/s %9.0f/s %8.2fx\n' "POST /verify" "$p" "$c" "$(ratio "$p" "$c")" "$wp" "$wc" "$(ratio "$wc" "$wp")"
printf '%-14s %10s %10s\n' "binary (MB)" "$(stat -c %s "$out/caddy-purego" | awk '{printf "%.1f", $1 / 1e6}')" \
	"$(stat -c %s "$out/caddy-cgo" | awk '{printf "%.1f", $1 / 1e6}')"
echo "median of $runs runs; speed-up is pure Go time / cgo time, or cgo verifies/s / pure Go verifies/s"
echo "raw: $out/cpu-*.txt, $out/wrk-*.txt, and benchstat $out/bench-purego.txt $out/bench-cgo.txt"
