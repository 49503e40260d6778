#!/usr/bin/env bash
# load.sh measures caddy-x402's overhead with wrk, against baselines in the
# same run (bench/load.Caddyfile):
#   free route behind a server with x402  vs  plain reverse_proxy
#   x402's 402 challenge                  vs  a plain respond of the same size
# Usage: bash bench/load.sh [duration, default 10s] [connections, default 32]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
dur=${1:-10s}
conns=${2:-32}
go build -o /tmp/caddy-x402-bench ./xcaddy
/tmp/caddy-x402-bench run --config bench/load.Caddyfile >/tmp/caddy-x402-bench.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -fs http://127.0.0.1:9101/ >/dev/null 2>&1 && break; sleep 0.2; done

rps() { wrk -t2 -c"$conns" -d"$dur" --latency "$1" | awk '/Requests\/sec/ {print $2}'; }
wrk -t2 -c"$conns" -d2s http://127.0.0.1:9101/ >/dev/null # warm up

proxy=$(rps http://127.0.0.1:9101/)
free=$(rps http://127.0.0.1:9102/free)
respond=$(rps http://127.0.0.1:9103/)
challenge=$(rps http://127.0.0.1:9102/paid/x)
printf 'plain reverse_proxy          %10.0f req/s\n' "$proxy"
printf 'x402 server, free route      %10.0f req/s   %.3fx (target >= 0.95)\n' "$free" "$(echo "$free/$proxy" | bc -l)"
printf 'plain respond (402 body)     %10.0f req/s\n' "$respond"
printf 'x402 challenge (402)         %10.0f req/s   %.3fx (target >= 0.8)\n' "$challenge" "$(echo "$challenge/$respond" | bc -l)"
