#!/usr/bin/env bash
# Settle throughput and latency of one replica against three, each a
# separate caddy process built from ./xcaddy, on one devnet sealing a block
# a second and one PostgreSQL (X402_TEST_DATABASE_URL, default the local
# server). Prints payments/s and p50/p99 latency per replica count.
set -euo pipefail
cd "$(dirname "$0")/.."
export X402_TEST_DATABASE_URL="${X402_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}"
X402_FLEET_BENCH=1 go test -count=1 -timeout 20m -v -run 'TestFleetThroughput' ./xcaddy/ | grep -E 'replicas=|^(ok|FAIL|---)'
