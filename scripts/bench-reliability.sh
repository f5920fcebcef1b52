#!/bin/sh
# Issue 12's figures, in release mode:
# - `list`, `list --state pending` and `export --json` reads at 100,000 and 1,000,000
#   records, median of 3, each against the sqlite3 shell running the same query on the same
#   file (crates-bench list);
# - the peak memory of an import of 1,000,000 valid lines (parsed, then added to a new
#   collection without lookups) and of a file that is one 50 MB line, through the library
#   (crates-bench import-memory) and through `crates import --no-lookup` itself, read from
#   /usr/bin/time -v, each run under `prlimit --as` (1 GiB of address space) so that a
#   regression fails fast instead of eating the machine.
# RECORDS=100000 (a comma list) runs fewer sizes; RUNS=N changes the median's runs.
set -eu
cd "$(dirname "$0")/.."
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates-bench
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates-bench"
CRATES="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-reliability.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
LIMIT=$((1024 * 1024 * 1024))

"$BIN" list --records "${RECORDS:-100000,1000000}" --runs "${RUNS:-3}" --dir "$DIR"
echo

# One run's peak resident memory (MB) from /usr/bin/time -v, and the driver's own line.
peak() {
    name="$1"
    shift
    if /usr/bin/time -v -o "$DIR/time.txt" prlimit --as="$LIMIT" "$@" >"$DIR/out.txt" 2>&1; then status=0; else status=$?; fi
    kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$DIR/time.txt")
    wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$DIR/time.txt")
    awk -v name="$name" -v kb="$kb" -v wall="$wall" -v status="$status" 'BEGIN {
        printf "%-44s %7.1f MB   target < 100 MB  (%.2f× target)  wall %s  exit %s\n", name, kb / 1024, kb / 1024 / 100, wall, status
    }'
    sed 's/^/    /' "$DIR/out.txt"
}

"$BIN" write-gtins --file "$DIR/1m.txt" --count 1000000
head -c $((50 * 1024 * 1024)) /dev/zero | tr '\0' '5' >"$DIR/50mb.txt"
echo >>"$DIR/50mb.txt"
peak "import 1,000,000 lines (parse + add)" "$BIN" import-memory --file "$DIR/1m.txt" --db "$DIR/import.sqlite"
peak "import 1,000,000 lines again (all present)" "$BIN" import-memory --file "$DIR/1m.txt" --db "$DIR/import.sqlite"
peak "import one 50 MB line" "$BIN" import-memory --file "$DIR/50mb.txt" --db "$DIR/import.sqlite"
# The command itself, as a user runs it (argument parsing, the console, the summary).
peak "crates import 1,000,000 lines --no-lookup" "$CRATES" import --no-lookup --db "$DIR/cli.sqlite" "$DIR/1m.txt"
peak "crates import 1,000,000 lines again" "$CRATES" import --no-lookup --db "$DIR/cli.sqlite" "$DIR/1m.txt"
peak "crates import one 50 MB line" "$CRATES" import --no-lookup --db "$DIR/cli.sqlite" "$DIR/50mb.txt"
