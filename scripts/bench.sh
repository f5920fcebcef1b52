#!/bin/sh
# The benchmarks of issues 3 and 5, in release mode, printing medians next to their targets:
# first the store (crates-bench), then the UI core (crates-tui-bench) over the 100,000-record
# collection the store benchmark built. Extra arguments go to crates-bench (--runs N,
# --records N).
set -eu
cd "$(dirname "$0")/.."
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
swift build -c release --scratch-path "$SCRATCH" --product crates-bench
swift build -c release --scratch-path "$SCRATCH" --product crates-tui-bench
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
"$BIN/crates-bench" --dir "$DIR" "$@"
echo
"$BIN/crates-tui-bench" --db "$DIR/collection.sqlite"
