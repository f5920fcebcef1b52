#!/usr/bin/env bash
# The Discogs lookup benchmark of issue 13: the real `crates import` (a release build)
# against the loopback Discogs server with Discogs' real window (60 requests in a moving
# 60 s), a bulk list found at its first form, then the same list under a fault mix. Prints
# each run and the medians of 3 (scripts/bench_lookup.py says what each figure is); exits
# non-zero when a target is missed. About 10 minutes.
#
#   scripts/bench-lookup.sh [--runs N] [--count N] [--gtins FILE] [--compare-python] …
#
# --gtins FILE measures a list nobody here wrote (the server answers any valid GTIN at its
# first form). --compare-python also times python3-discogs-client on the same list
# (pip install python3-discogs-client). SCRATCH=DIR builds in another scratch directory.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=()
[ -n "${SCRATCH:-}" ] && scratch=(--scratch-path "$SCRATCH")
swift build -c release --static-swift-stdlib "${scratch[@]}" --product crates >&2
exec python3 scripts/bench_lookup.py --binary "$(swift build -c release --static-swift-stdlib "${scratch[@]}" --show-bin-path)/crates" "$@"
