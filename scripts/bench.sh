#!/bin/sh
# The benchmarks of issues 3 and 5, in release mode, printing medians next to their targets:
# first the store (crates-bench), then the UI core (crates-tui-bench) over the 100,000-record
# collection the store benchmark built, and the collection's filter again over a
# 1,000,000-record collection (target: 20 ms per 100,000 records). Extra arguments go to
# crates-bench (--runs N, --records N); CRATES_BENCH_MILLION=0 leaves the million out.
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
if [ "${CRATES_BENCH_MILLION:-1}" != 0 ]; then
    echo
    "$BIN/crates-bench" --dir "$DIR/million" --records 1000000 --runs 1 --only collection
    "$BIN/crates-tui-bench" --db "$DIR/million/collection.sqlite" --filter-only
fi
