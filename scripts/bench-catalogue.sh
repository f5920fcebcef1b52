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
# Then, with the last catalogue built, the import the catalogue is for: a file of 5,000 of
# its barcodes (IMPORT_BARCODES; as EAN-13/UPC-A digits) imported by `crates import` into a
# fresh collection, with no Discogs account and Discogs' API at a closed loopback port
# (unreachable), timed from the start until `crates list --json` shows no pending record;
# prints the median of RUNS and its ratio to the target (every record final in at most 30 s).
#
# With --parsers, first measures the two streaming parsers the build could use on the same
# dump, uncompressed (scripts/bench-xml-parsers.c: expat against libxml2's xmlTextReader).
#
# Usage: scripts/bench-catalogue.sh [--parsers] [RELEASES] [RUNS]
#        Environment: BENCH_SCRATCH_PATH (the build's scratch path, default .build),
#        IMPORT_BARCODES (default 5000; 0 skips the import).
set -euo pipefail
cd "$(dirname "$0")/.."
PARSERS=0
if [ "${1:-}" = "--parsers" ]; then PARSERS=1; shift; fi
RELEASES="${1:-200000}"
RUNS="${2:-3}"
IMPORT_BARCODES="${IMPORT_BARCODES:-5000}"
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

[ "$IMPORT_BARCODES" -gt 0 ] || exit 0

# The barcodes: distinct keys of the catalogue (GTIN-14 integers), written as the 13 digits
# of an EAN-13 (a UPC-A with its leading 0): what a scanner reads from the sleeve. Only
# those crates takes for a record's (the generator also writes shop price labels, coupons
# and ISBNs, which an import refuses): not the GS1 prefixes 020-029, 040-059, 200-299
# (restricted circulation, coupons) nor 977-999 (ISSN, ISBN, ISMN, refunds, coupons).
python3 - "$DIR/catalogue.sqlite" "$IMPORT_BARCODES" > "$DIR/barcodes.txt" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
wanted = int(sys.argv[2])
for (gtin,) in db.execute("SELECT DISTINCT gtin FROM barcode WHERE gtin < 10000000000000 ORDER BY gtin"):
    prefix = gtin // 10**10
    if 20 <= prefix <= 29 or 40 <= prefix <= 59 or 200 <= prefix <= 299 or prefix >= 977:
        continue
    print("%013d" % gtin)
    wanted -= 1
    if wanted == 0:
        break
PY
WANTED="$(wc -l < "$DIR/barcodes.txt")"
[ "$WANTED" -eq "$IMPORT_BARCODES" ] || { echo "the catalogue has only $WANTED barcodes: generate more releases" >&2; exit 1; }
# A loopback port nothing listens on: Discogs cannot be reached.
CLOSED="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
pending() {
  "$BIN/crates" list --json --db "$1" | grep -c '"state":"pending"\|"state":"lookingUp"' || true
}
: > "$DIR/import"; : > "$DIR/importcpu"
for run in $(seq "$RUNS"); do
  HOMEDIR="$DIR/home$run"; mkdir -p "$HOMEDIR"
  START="$(date +%s.%N)"
  env -i PATH="$PATH" HOME="$HOMEDIR" XDG_DATA_HOME="$HOMEDIR/data" XDG_CONFIG_HOME="$HOMEDIR/config" \
    XDG_CACHE_HOME="$HOMEDIR/cache" CRATES_DISCOGS_API="http://127.0.0.1:$CLOSED" LANG=C.UTF-8 \
    /usr/bin/time -f "%U %S" -o "$DIR/t" \
    "$BIN/crates" import --db "$HOMEDIR/crates.sqlite" --catalogue "$DIR/catalogue.sqlite" "$DIR/barcodes.txt" \
    > "$DIR/import-out" 2> "$DIR/import-err" || true
  while [ "$(pending "$HOMEDIR/crates.sqlite")" != 0 ]; do
    # Not final within 10 minutes: say so rather than wait for ever.
    if awk -v s="$START" -v n="$(date +%s.%N)" 'BEGIN { exit !(n - s > 600) }'; then echo "records still pending after 600 s" >&2; break; fi
    sleep 0.2
  done
  END="$(date +%s.%N)"
  awk -v s="$START" -v e="$END" 'BEGIN { printf "%.2f\n", e - s }' >> "$DIR/import"
  # The last line: /usr/bin/time writes "Command exited with non-zero status 4" first when
  # the import says that lookups wait for Discogs.
  tail -1 "$DIR/t" | awk '{ print $1 + $2 }' >> "$DIR/importcpu"
  RECORDS="$("$BIN/crates" list --json --db "$HOMEDIR/crates.sqlite" | wc -l)"
  echo "import run $run: $(tail -1 "$DIR/import") s ($(tail -1 "$DIR/importcpu") CPU s), $RECORDS records, $(pending "$HOMEDIR/crates.sqlite") pending" >&2
done
grep -h "added\|answered" "$DIR/import-out" >&2 || true
IMPORT="$(median < "$DIR/import")"; IMPORTCPU="$(median < "$DIR/importcpu")"
awk -v t="$IMPORT" -v c="$IMPORTCPU" -v n="$IMPORT_BARCODES" -v runs="$RUNS" 'BEGIN {
  printf "import of %d barcodes the catalogue knows, Discogs unreachable, release build, median of %d runs:\n", n, runs
  printf "  every record final %7.2f s   (%.2f CPU s of crates import)   %.3fx the target (<= 30 s)\n", t, c, t / 30
}'
