#!/usr/bin/env bash
# The Discogs lookup benchmark: 200 GTINs through the store, the lookup worker, the rate
# limiter and libcurl, against the loopback Discogs server (Tests/DiscogsServer/server.py)
# with the rate-limit window scaled down from 60 requests / 60 s to 20 requests / 5 s.
# About two minutes per run. Options pass through: --limit N --window S --runs N.
# Exits non-zero when a target is missed (rate < 0.95 of allowed, any 429, any lookup lost).
#
# A debug build: the run is paced by the rate limit, not by the CPU. SCRATCH=DIR builds in
# another scratch directory.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=()
[ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
swift build "${scratch[@]}" --product crates-lookup-bench >&2
exec "$(swift build "${scratch[@]}" --show-bin-path)/crates-lookup-bench" "$@"
