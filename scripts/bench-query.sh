#!/bin/sh
# The query language's speed (issue: a collector's second month), medians and ratios of
# their targets, over a 100,000-record collection crates-bench builds:
#   - `crates list QUERY` with three terms, as a process (target 100 ms), against
#     `crates list` of a plain word;
#   - the UI's filter per keystroke with the same query (target 20 ms), against the plain
#     filter's words;
#   - 10,000 records a query keeps moved in one transaction, and the move undone (2 s).
# Release build by default; CRATES_BENCH_DEBUG=1 uses the debug build (slower: say so when
# quoting its figures). RUNS (default 7) process runs per command.
set -eu
cd "$(dirname "$0")/.."
RUNS="${RUNS:-7}"
# A release build as every release build is made (the Makefile's: Swift's runtime linked in).
if [ "${CRATES_BENCH_DEBUG:-0}" = 1 ]; then CONFIG="-c debug"; else CONFIG="-c release --static-swift-stdlib"; fi
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
# shellcheck disable=SC2086 # CONFIG is two or three words on purpose
swift build $CONFIG --scratch-path "$SCRATCH" --product crates-bench
# shellcheck disable=SC2086
swift build $CONFIG --scratch-path "$SCRATCH" --product crates
# shellcheck disable=SC2086
BUILT="$(swift build $CONFIG --scratch-path "$SCRATCH" --show-bin-path)"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-query.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
# Copies of the binaries: a build running meanwhile does not replace them mid-run.
BIN="$DIR/bin"
mkdir "$BIN"
cp "$BUILT/crates" "$BUILT/crates-bench" "$BIN/"
"$BIN/crates-bench" --dir "$DIR" --records 100000 --runs 1 --only collection
DB="$DIR/collection.sqlite"
echo "build: ${CONFIG#-c }; load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# Milliseconds of each of $RUNS runs of a command (its output thrown away), sorted.
runs() {
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        start=$(date +%s%N)
        "$@" >/dev/null
        end=$(date +%s%N)
        echo $(( (end - start) / 1000000 ))
        i=$((i + 1))
    done | sort -n
}
median() { sed -n "$(( (RUNS + 1) / 2 ))p"; }

QUERY_MS=$(runs "$BIN/crates" --db "$DB" list artist:bjork format:lp year:1970..1979 | median)
PLAIN_MS=$(runs "$BIN/crates" --db "$DB" list bjork | median)
KEPT=$("$BIN/crates" --db "$DB" list artist:bjork format:lp year:1970..1979 | wc -l)
printf 'crates list artist:bjork format:lp year:1970..1979 (%s lines), process  median %5d ms  target < 100 ms  (%s× target)\n' \
    "$KEPT" "$QUERY_MS" "$(echo "scale=2; $QUERY_MS / 100" | bc)"
printf 'crates list bjork, process                                          median %5d ms  (three terms: %s× the plain word)\n' \
    "$PLAIN_MS" "$(echo "scale=2; $QUERY_MS / $PLAIN_MS" | bc)"
"$BIN/crates-bench" query --db "$DB" --runs 3
