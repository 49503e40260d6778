#!/usr/bin/env bash
# load.sh measures caddy-x402's overhead with wrk, against baselines in the
# same run (bench/load.Caddyfile):
#   free route behind a server with x402  vs  plain reverse_proxy (:9101)
#   x402's 402 challenge (:9102/paid/x)   vs  a plain respond of the very same
#                                             answer, headers and body (:9104)
#                                         and a plain respond of a smaller
#                                             answer, the earlier baseline (:9103)
# The 402 and the :9104 answer are checked to be the same bytes (but Date)
# before anything is measured. Besides each one's requests a second, it
# prints Caddy's CPU time a request (user and system, from /proc/PID/stat)
# of the respond, the same answer and the 402, and the ratio of the same
# answer's to the 402's (cpu-s/4): on cores shared with other work, the CPU
# time a request varies less than the rate.
#
# The five are measured in turns, in LOAD_SLICES (default 4) slices of the
# duration each.
#
# With LOAD_BASE=<git revision>, Caddy is also built from that revision and
# the two binaries run alternately (base first), each with the work tree's
# bench/load.Caddyfile, rounds times: the machine's load then weighs on both
# alike, and the paired ratio of their 402s (new/base) is printed per round.
# LOAD_PROFILE=1 writes a 10 s CPU profile of each binary's 402 in the first
# round, after its measurement, from Caddy's admin endpoint (127.0.0.1:9109),
# to $LOAD_DIR/cpu-402-<binary>.pprof.
#
# Usage: bash bench/load.sh [duration, default 10s] [connections, default 32]
#        [rounds, default 1]
# Environment: LOAD_BASE, LOAD_BASE_BIN (a binary already built from
# LOAD_BASE, used instead of building it), LOAD_PROFILE, LOAD_DIR (default
# /tmp/caddy-x402-load).
# Ports 9100-9104 and 9109 must be free.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
dur=${1:-10s}
conns=${2:-32}
rounds=${3:-1}
out=${LOAD_DIR:-/tmp/caddy-x402-load}
mkdir -p "$out"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for port in 9100 9101 9102 9103 9104 9109; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "load: port $port is in use (another run?)" >&2
		exit 2
	fi
done

go build -o "$out/caddy-new" ./xcaddy
bins=(new)
declare -A bin=([new]="$out/caddy-new")
if [ -n "${LOAD_BASE:-}" ]; then
	rev=$(git rev-parse --short "$LOAD_BASE")
	rm -rf "$out/base-src"
	mkdir -p "$out/base-src"
	bins=(base new)
	bin[base]="$out/caddy-base"
	if [ -n "${LOAD_BASE_BIN:-}" ]; then
		bin[base]=$LOAD_BASE_BIN # built from LOAD_BASE already
	else
		git archive "$rev" | tar -x -C "$out/base-src"
		(cd "$out/base-src" && go build -o "$out/caddy-base" ./xcaddy)
	fi
	echo "base is $rev ($(git log -1 --format=%s "$rev" | cut -c1-60)...), new is the work tree"
fi

pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT
# Caddy's own state (autosave, data directory) stays in $out.
export HOME=$out XDG_DATA_HOME=$out XDG_CONFIG_HOME=$out

# answer URL prints the status line, the headers but Date, and the body.
answer() { curl -s -D - "$1" | tr -d '\r' | grep -v '^Date: '; }
# The five URLs are measured in turns, slices times for dur/slices each, so
# that a change in the machine's load (other work on its cores) weighs on
# each alike; each one's rate is its requests over its time, in all slices.
slices=${LOAD_SLICES:-4}
secs=${dur%s}
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "load: give the duration in seconds, such as 10s" >&2; exit 2; }
slice=$(((secs + slices - 1) / slices))
names=(proxy free respond same challenge)
declare -A url=([proxy]=http://127.0.0.1:9101/ [free]=http://127.0.0.1:9102/free [respond]=http://127.0.0.1:9103/
	[same]=http://127.0.0.1:9104/ [challenge]=http://127.0.0.1:9102/paid/x)
hz=$(getconf CLK_TCK)
# ticks PID prints the user and system CPU time PID has used, in ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# measure PID prints the rate of each of names, in turns, and then the CPU
# time Caddy (PID) spent a request of each, in microseconds.
measure() {
	local n name r t c0 c1
	declare -A reqs=() took=() cpu=()
	for n in $(seq "$slices"); do
		for name in "${names[@]}"; do
			c0=$(ticks "$1")
			read -r r t < <(wrk -t2 -c"$conns" -d"${slice}s" "${url[$name]}" |
				awk '/ requests in / {sub(/s,$/, "", $4); print $1, $4}')
			c1=$(ticks "$1")
			reqs[$name]=$((${reqs[$name]:-0} + r))
			took[$name]=$(echo "${took[$name]:-0} + $t" | bc -l)
			cpu[$name]=$((${cpu[$name]:-0} + c1 - c0))
		done
	done
	{
		for name in "${names[@]}"; do
			echo "${reqs[$name]} / ${took[$name]}" | bc -l
		done
		for name in "${names[@]}"; do
			echo "${cpu[$name]} * 1000000 / $hz / ${reqs[$name]}" | bc -l
		done
	} | xargs
}

for m in "${bins[@]}"; do : >"$out/results-$m.txt"; done
echo "== $rounds round(s): wrk -t2 -c$conns, $slices slices of ${slice}s an URL, in turns; $(nproc) cores; load average $(load)"
printf '%-5s %-6s %9s %9s %9s %9s %9s %8s %8s %8s %7s %7s %7s %8s\n' round binary proxy free respond same 402 free/px 402/same 402/resp \
	"resp-us" "same-us" "402-us" "cpu-s/4"
for r in $(seq "$rounds"); do
	for m in "${bins[@]}"; do
		config=bench/load.Caddyfile
		if [ "$r" = 1 ] && [ "${LOAD_PROFILE:-0}" = 1 ]; then
			sed 's/^\tadmin off$/\tadmin 127.0.0.1:9109/' bench/load.Caddyfile >"$out/load.Caddyfile"
			config=$out/load.Caddyfile
		fi
		"${bin[$m]}" run --config "$config" --adapter caddyfile >"$out/caddy-$m.log" 2>&1 &
		pid=$!
		for _ in $(seq 100); do curl -fs http://127.0.0.1:9101/ >/dev/null 2>&1 && break; sleep 0.2; done
		if [ "$(answer http://127.0.0.1:9102/paid/x)" != "$(answer http://127.0.0.1:9104/)" ]; then
			echo "load: $m: the 402 of :9102/paid/x is not the answer of :9104; update bench/load.Caddyfile" >&2
			diff <(answer http://127.0.0.1:9102/paid/x) <(answer http://127.0.0.1:9104/) >&2 || true
			exit 1
		fi
		wrk -t2 -c"$conns" -d2s http://127.0.0.1:9101/ >/dev/null # warm up
		read -r proxy free respond same challenge cproxy cfree crespond csame cchallenge < <(measure "$pid")
		if [ "$config" != bench/load.Caddyfile ]; then
			# The profile of the 402 alone, after the measurement.
			(sleep 1 && curl -s -o "$out/cpu-402-$m.pprof" "http://127.0.0.1:9109/debug/pprof/profile?seconds=10") &
			profiler=$!
			wrk -t2 -c"$conns" -d12s http://127.0.0.1:9102/paid/x >"$out/wrk-profile-$m.txt"
			wait "$profiler"
		fi
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		pid=
		echo "$proxy $free $respond $same $challenge $cproxy $cfree $crespond $csame $cchallenge" >>"$out/results-$m.txt"
		printf '%-5s %-6s %9.0f %9.0f %9.0f %9.0f %9.0f %8.3f %8.3f %8.3f %7.1f %7.1f %7.1f %8.3f\n' "$r" "$m" "$proxy" "$free" "$respond" "$same" "$challenge" \
			"$(echo "$free/$proxy" | bc -l)" "$(echo "$challenge/$same" | bc -l)" "$(echo "$challenge/$respond" | bc -l)" \
			"$crespond" "$csame" "$cchallenge" "$(echo "$csame/$cchallenge" | bc -l)"
	done
done
echo "== load average $(load); targets: free/proxy >= 0.95, 402/same >= 0.95 (issue 43)"
if [ "${#bins[@]}" = 2 ]; then
	# The paired ratios of the two binaries' 402s, and of their 402/same.
	paste "$out/results-base.txt" "$out/results-new.txt" | awk '{
		printf "round %d: new/base 402 req/s %.3f, CPU a 402 %.3f; 402/same %.3f -> %.3f, 402/respond %.3f -> %.3f; CPU same/402 %.3f -> %.3f\n",
			NR, $15 / $5, $20 / $10, $5 / $4, $15 / $14, $5 / $3, $15 / $13, $9 / $10, $19 / $20 }'
fi
echo "raw: $out/results-*.txt${LOAD_PROFILE:+, $out/cpu-402-*.pprof}"
