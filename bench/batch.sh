#!/usr/bin/env bash
# batch.sh: the gas and calldata a payment costs when the facilitator
# settles exact payments one a transaction (as upstream's facilitator does,
# transferWithAuthorization on the token) and when it batches them
# (the network option `batch`, the X402Batch contract), side by side in one
# run on an embedded devnet, for bursts of 1, 10, 50 and 200 payments. The
# driver (bench/batch) checks that every payment settled and that the
# merchant's balance moved by exactly the prices, and fails if a burst of
# 50 costs more than 0.70 of the unbatched gas a payment or 0.8 of its
# calldata. Not run in CI; it takes about a minute.
#
# Usage: bash bench/batch.sh [driver flags...]   e.g. -sizes 1,10,50,200
set -euo pipefail
cd "$(dirname "$0")/.."
echo "caddy-x402 $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%FT%TZ)"
go run ./bench/batch "$@"
