#!/bin/sh
# The store benchmark (issue 3): builds crates-bench in release mode and runs it.
# Prints medians next to their targets. Extra arguments go to crates-bench
# (--runs N, --records N, --dir PATH).
set -eu
cd "$(dirname "$0")/.."
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
swift build -c release --scratch-path "$SCRATCH" --product crates-bench
exec "$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/crates-bench" "$@"
