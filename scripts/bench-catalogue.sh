#!/usr/bin/env bash
# The Discogs catalogue's build (issue 20), in release mode, over a generated releases dump
# (crates-bench generate-dump: the 2025 format with every trait of the real dumps) of
# RELEASES releases (default 200,000). Each run times, on the same file:
#   - the floor: `zcat FILE > /dev/null`;
#   - `crates catalogue build FILE` into a fresh catalogue, under /usr/bin/time -v;
# and prints the medians of RUNS runs (default 3): zcat's seconds, the build's, their ratio
# (target at most 3), releases per second, peak memory (target at most 200 MB) and the
# catalogue's bytes per release (target at most 160).
#
# With --parsers, first measures the two streaming parsers the build could use on the same
# dump, uncompressed (scripts/bench-xml-parsers.c: expat against libxml2's xmlTextReader).
#
# Usage: scripts/bench-catalogue.sh [--parsers] [RELEASES] [RUNS]
#        Environment: BENCH_SCRATCH_PATH (the build's scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
PARSERS=0
if [ "${1:-}" = "--parsers" ]; then PARSERS=1; shift; fi
RELEASES="${1:-200000}"
RUNS="${2:-3}"
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
swift build -c release -j 1 --scratch-path "$SCRATCH" --product crates >&2
swift build -c release -j 1 --scratch-path "$SCRATCH" --product crates-bench >&2
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-catalogue.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
DUMP="$DIR/discogs_20250601_releases.xml.gz"

"$BIN/crates-bench" generate-dump --releases "$RELEASES" --seed 1 --out "$DUMP"
echo "dump: $(stat -c %s "$DUMP") bytes gzipped" >&2

if [ "$PARSERS" = 1 ]; then
  cc -O2 -o "$DIR/parsers" scripts/bench-xml-parsers.c -lexpat $(pkg-config --cflags --libs libxml-2.0)
  # Without the two faulty releases: a parser measured alone stops at the first.
  "$BIN/crates-bench" generate-dump --releases "$RELEASES" --seed 1 --faults no --out "$DIR/dump.xml" 2>/dev/null
  echo "parsers, $(stat -c %s "$DIR/dump.xml") bytes of XML, one thread, medians of $RUNS:"
  "$DIR/parsers" "$DIR/dump.xml" "$RUNS"
  rm -f "$DIR/dump.xml"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: > "$DIR/zcat"; : > "$DIR/zcatcpu"; : > "$DIR/build"; : > "$DIR/buildcpu"; : > "$DIR/rss"; : > "$DIR/bytes"
for run in $(seq "$RUNS"); do
  /usr/bin/time -f "%e %U %S" -o "$DIR/t" zcat "$DUMP" > /dev/null
  awk '{ print $1 }' "$DIR/t" >> "$DIR/zcat"
  awk '{ print $2 + $3 }' "$DIR/t" >> "$DIR/zcatcpu"
  rm -f "$DIR/catalogue.sqlite"
  /usr/bin/time -v -o "$DIR/v" "$BIN/crates" catalogue build --catalogue "$DIR/catalogue.sqlite" "$DUMP" > "$DIR/out"
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$DIR/v" >> "$DIR/build"
  awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$DIR/v" >> "$DIR/buildcpu"
  awk -F': ' '/Maximum resident set size/ { print $2 / 1024 }' "$DIR/v" >> "$DIR/rss"
  stat -c %s "$DIR/catalogue.sqlite" >> "$DIR/bytes"
  echo "run $run: zcat $(tail -1 "$DIR/zcat") s ($(tail -1 "$DIR/zcatcpu") CPU s), build $(tail -1 "$DIR/build") s ($(tail -1 "$DIR/buildcpu") CPU s), peak $(tail -1 "$DIR/rss") MB" >&2
done
head -1 "$DIR/out" >&2
LISTED="$("$BIN/crates" catalogue status --json --catalogue "$DIR/catalogue.sqlite" | sed 's/.*"releases":\([0-9]*\).*/\1/')"
ZCAT="$(median < "$DIR/zcat")"; BUILD="$(median < "$DIR/build")"; RSS="$(median < "$DIR/rss")"; BYTES="$(median < "$DIR/bytes")"
ZCATCPU="$(median < "$DIR/zcatcpu")"; BUILDCPU="$(median < "$DIR/buildcpu")"
awk -v z="$ZCAT" -v b="$BUILD" -v zc="$ZCATCPU" -v bc="$BUILDCPU" -v r="$RSS" -v bytes="$BYTES" -v n="$LISTED" -v runs="$RUNS" 'BEGIN {
  printf "catalogue build, %d releases, medians of %d runs (wall clock; CPU time of all threads beside):\n", n, runs
  printf "  zcat (the floor)   %7.2f s   (%.2f CPU s)\n", z, zc
  printf "  build              %7.2f s   (%.2f CPU s)   %.2fx zcat (target <= 3)\n", b, bc, b / z
  printf "  releases/s         %7.0f\n", n / b
  printf "  peak memory        %7.0f MB  (target <= 200)\n", r
  printf "  catalogue          %7.0f bytes a release (target <= 160), %d bytes\n", bytes / n, bytes
}'
