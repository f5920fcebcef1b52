#!/bin/sh
# The benchmarks of issues 3 and 5, in release mode, printing medians next to their targets:
# first the store (crates-bench), then the UI core (crates-tui-bench) over the 100,000-record
# collection the store benchmark built, then `crates import --no-lookup` of 100,000 barcodes
# (scripts/bench-import.sh: target 3 s), and over a 1,000,000-record collection the
# collection's filter again (target: 20 ms per 100,000 records) and `crates list` and
# `list --json` against sqlite3 printing the same columns (scripts/bench-list.sh: target at
# most 3x, in the same run). Extra arguments go to crates-bench (--runs N, --records N);
# CRATES_BENCH_MILLION=0 leaves the million out. Exits non-zero when the import or the
# list misses its target (after every figure is printed).
set -eu
cd "$(dirname "$0")/.."
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates-bench
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates-tui-bench
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
"$BIN/crates-bench" --dir "$DIR" "$@"
echo
"$BIN/crates-tui-bench" --db "$DIR/collection.sqlite"
missed=0
echo
scripts/bench-import.sh "$SCRATCH" || missed=1
if [ "${CRATES_BENCH_MILLION:-1}" != 0 ]; then
    echo
    "$BIN/crates-bench" --dir "$DIR/million" --records 1000000 --runs 1 --only collection
    "$BIN/crates-tui-bench" --db "$DIR/million/collection.sqlite" --filter-only
    echo
    scripts/bench-list.sh "$DIR/million/collection.sqlite" "$SCRATCH" || missed=1
fi
exit "$missed"
