#!/usr/bin/env bash
# The Discogs catalogue's build, in release mode, over generated releases dumps of the real
# dump's size and make-up (crates-bench generate-dump: the 2025 format with every trait of the
# real dumps, about 3.9 KB of XML and 550 bytes of gzip a release), at SIZES releases
# (default 200,000, 2,000,000 and 5,000,000), in one run. For each size it times, on the same
# file:
#   - the floors: `zcat FILE > /dev/null` (zlib) and `igzip -dc FILE > /dev/null` (ISA-L);
#   - `crates catalogue build FILE` into a fresh catalogue, under /usr/bin/time -v;
# and prints the medians of RUNS runs (default 3 at the smallest size, RUNS_LARGE, default 1,
# at the others): the dump's mean sizes a release, the floors' and the build's wall clock and
# CPU time of all threads, the build's ratios to both floors (targets: at most 1.0x zcat, 4x
# igzip), releases per second, peak memory (target at most 200 MB, flat) and the catalogue's
# bytes per release. Then, from the two largest sizes, the projection for all of Discogs
# (19,000,000 releases: time, memory, catalogue and dump size; goal under 6 minutes, under
# 200 MB, about 2.5 GB). The machine's load average is printed at the start and the end: the
# machine has two cores, shared; CPU times are the figures least moved by the load.
#
# Then, with the smallest catalogue, the import the catalogue is for: a file of 5,000 of its
# barcodes (IMPORT_BARCODES; 0 skips it) imported by `crates import` into a fresh collection,
# with no Discogs account and Discogs' API at a closed loopback port, timed until `crates
# list --json` shows no pending record (target: every record final within 30 s).
#
# With --parsers, first measures the two streaming parsers the build was compared with, on
# the smallest dump uncompressed (scripts/bench-xml-parsers.c: expat against libxml2).
#
# Usage: scripts/bench-catalogue.sh [--parsers] [SIZES] [RUNS]
#        SIZES: releases, blank-separated ("200000 2000000 5000000").
#        Environment: BENCH_DATA (a directory that keeps the generated dumps for the next run:
#        a 5,000,000-release dump takes some 10 minutes to generate and 2.8 GB; default a
#        temporary directory, removed at the end), RUNS_LARGE, IMPORT_BARCODES,
#        BENCH_SCRATCH_PATH (the build's scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
PARSERS=0
if [ "${1:-}" = "--parsers" ]; then PARSERS=1; shift; fi
SIZES="${1:-200000 2000000 5000000}"
RUNS="${2:-3}"
RUNS_LARGE="${RUNS_LARGE:-1}"
IMPORT_BARCODES="${IMPORT_BARCODES:-5000}"
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
for tool in zcat igzip /usr/bin/time; do
  command -v "$tool" > /dev/null || { echo "bench-catalogue: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
swift build -c release --static-swift-stdlib -j 1 --scratch-path "$SCRATCH" --product crates >&2
swift build -c release --static-swift-stdlib -j 1 --scratch-path "$SCRATCH" --product crates-bench >&2
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-catalogue.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM
DATA="${BENCH_DATA:-$DIR}"
mkdir -p "$DATA"
load() { cut -d' ' -f1-3 /proc/loadavg; }
LOAD_START="$(load)"
echo "load average at the start: $LOAD_START" >&2

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Seconds of wall clock and of CPU (user + system, every thread) of a /usr/bin/time -v report.
wall() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$1"; }
peak() { awk -F': ' '/Maximum resident set size/ { print $2 / 1024 }' "$1"; }

SMALLEST=""
: > "$DIR/results"
for n in $SIZES; do
  [ -n "$SMALLEST" ] || SMALLEST="$n"
  DUMP="$DATA/discogs_20250601_releases-$n.xml.gz"
  # The generator's summary beside the dump: its uncompressed bytes, and that it is whole.
  if [ ! -s "$DUMP" ] || [ ! -s "$DUMP.summary" ]; then
    echo "generating $n releases…" >&2
    rm -f "$DUMP" "$DUMP.summary"
    "$BIN/crates-bench" generate-dump --releases "$n" --seed 1 --out "$DUMP" 2> "$DUMP.summary.part"
    mv "$DUMP.summary.part" "$DUMP.summary"
  fi
  XML="$(sed -n 's/.*, \([0-9]*\) bytes of XML.*/\1/p' "$DUMP.summary")"
  GZ="$(stat -c %s "$DUMP")"
  runs="$RUNS"; [ "$n" = "$SMALLEST" ] || runs="$RUNS_LARGE"
  for f in zcat zcatcpu igzip igzipcpu build buildcpu rss bytes; do : > "$DIR/$f"; done
  for run in $(seq "$runs"); do
    /usr/bin/time -v -o "$DIR/t" zcat "$DUMP" > /dev/null
    wall "$DIR/t" >> "$DIR/zcat"; cpu "$DIR/t" >> "$DIR/zcatcpu"
    /usr/bin/time -v -o "$DIR/t" igzip -dc "$DUMP" > /dev/null
    wall "$DIR/t" >> "$DIR/igzip"; cpu "$DIR/t" >> "$DIR/igzipcpu"
    rm -f "$DIR/catalogue.sqlite"
    /usr/bin/time -v -o "$DIR/v" "$BIN/crates" catalogue build --catalogue "$DIR/catalogue.sqlite" "$DUMP" > "$DIR/out"
    wall "$DIR/v" >> "$DIR/build"; cpu "$DIR/v" >> "$DIR/buildcpu"; peak "$DIR/v" >> "$DIR/rss"
    stat -c %s "$DIR/catalogue.sqlite" >> "$DIR/bytes"
    echo "$n, run $run: zcat $(tail -1 "$DIR/zcat") s ($(tail -1 "$DIR/zcatcpu") CPU s), igzip $(tail -1 "$DIR/igzip") s ($(tail -1 "$DIR/igzipcpu") CPU s), build $(tail -1 "$DIR/build") s ($(tail -1 "$DIR/buildcpu") CPU s), peak $(tail -1 "$DIR/rss") MB, load $(load)" >&2
  done
  head -1 "$DIR/out" >&2
  LISTED="$("$BIN/crates" catalogue status --json --catalogue "$DIR/catalogue.sqlite" | sed 's/.*"releases":\([0-9]*\).*/\1/')"
  echo "$n $LISTED $XML $GZ $runs $(median < "$DIR/zcat") $(median < "$DIR/zcatcpu") $(median < "$DIR/igzip") $(median < "$DIR/igzipcpu") $(median < "$DIR/build") $(median < "$DIR/buildcpu") $(median < "$DIR/rss") $(median < "$DIR/bytes")" >> "$DIR/results"
  [ "$n" = "$SMALLEST" ] && cp "$DIR/catalogue.sqlite" "$DIR/smallest.sqlite"
  rm -f "$DIR/catalogue.sqlite"
done
LOAD_END="$(load)"

awk -v l0="$LOAD_START" -v l1="$LOAD_END" '
{ n[NR] = $1; listed[NR] = $2; xml[NR] = $3; gz[NR] = $4; runs[NR] = $5; z[NR] = $6; zc[NR] = $7; ig[NR] = $8; igc[NR] = $9
  b[NR] = $10; bc[NR] = $11; r[NR] = $12; bytes[NR] = $13 }
END {
  printf "catalogue build, release build, medians (wall clock; CPU time of all threads in brackets); load average %s at the start, %s at the end:\n", l0, l1
  for (i = 1; i <= NR; i++) {
    printf "%d releases (%d listed), %d run%s: %.0f bytes of XML and %.0f of gzip a release (%.2f GB gzipped)\n", n[i], listed[i], runs[i], (runs[i] > 1 ? "s" : ""), xml[i] / n[i], gz[i] / n[i], gz[i] / 1e9
    printf "  zcat -> /dev/null   %8.2f s  (%7.2f CPU s)\n", z[i], zc[i]
    printf "  igzip -dc           %8.2f s  (%7.2f CPU s)\n", ig[i], igc[i]
    printf "  build               %8.2f s  (%7.2f CPU s)   %.2fx zcat (target <= 1.0), %.2fx igzip (target <= 4); CPU %.2fx zcat CPU\n", b[i], bc[i], b[i] / z[i], b[i] / ig[i], bc[i] / zc[i]
    printf "  releases/s          %8.0f\n", listed[i] / b[i]
    printf "  peak memory         %8.0f MB (target <= 200)\n", r[i]
    printf "  catalogue           %8.0f bytes a release, %.2f GB\n", bytes[i] / listed[i], bytes[i] / 1e9
  }
  if (NR >= 2) {
    # From the two largest: the time a release and the fixed cost, projected to 19,000,000
    # releases (the June 2026 dump); memory is the larger peak, when it does not grow.
    i = NR - 1; j = NR
    slope = (b[j] - b[i]) / (n[j] - n[i]); fixed = b[j] - slope * n[j]
    cslope = (bc[j] - bc[i]) / (n[j] - n[i]); cfixed = bc[j] - cslope * n[j]
    mslope = (r[j] - r[i]) / (n[j] - n[i])
    all = 19000000
    t = fixed + slope * all; ct = cfixed + cslope * all
    m = (r[j] > r[i]) ? r[j] + mslope * (all - n[j]) : r[i]
    printf "projected for all of Discogs, %d releases (from the %d and %d runs):\n", all, n[i], n[j]
    printf "  build               %8.1f min (%.1f CPU min)  (goal under 6 min)\n", t / 60, ct / 60
    # The wall clock of a shared machine moves with the load of others between the runs;
    # the CPU time does not, and the three threads share two cores.
    printf "  build, two idle cores %6.1f min  (the CPU time over two)\n", ct / 120
    printf "  peak memory         %8.0f MB  (%+.1f MB a million releases; goal under 200 MB)\n", m, mslope * 1e6
    printf "  catalogue           %8.2f GB  (goal about 2.5 GB)\n", bytes[j] / listed[j] * all / 1e9
    printf "  dump                %8.2f GB gzipped (Discogs 2026: about 10.4 GB)\n", gz[j] / n[j] * all / 1e9
  }
}' "$DIR/results"

if [ "$PARSERS" = 1 ]; then
  cc -O2 -o "$DIR/parsers" scripts/bench-xml-parsers.c -lexpat $(pkg-config --cflags --libs libxml-2.0)
  # Without the two faulty releases: a parser measured alone stops at the first.
  "$BIN/crates-bench" generate-dump --releases "$SMALLEST" --seed 1 --faults no --out "$DIR/dump.xml" 2>/dev/null
  echo "parsers, $(stat -c %s "$DIR/dump.xml") bytes of XML, one thread, medians of $RUNS:"
  "$DIR/parsers" "$DIR/dump.xml" "$RUNS"
  rm -f "$DIR/dump.xml"
fi

[ "$IMPORT_BARCODES" -gt 0 ] || exit 0

# The barcodes: distinct keys of the catalogue (GTIN-14 integers), written as the 13 digits
# of an EAN-13 (a UPC-A with its leading 0): what a scanner reads from the sleeve. Only
# those crates takes for a record's (the generator also writes shop price labels, coupons
# and ISBNs, which an import refuses): not the GS1 prefixes 020-029, 040-059, 200-299
# (restricted circulation, coupons) nor 977-999 (ISSN, ISBN, ISMN, refunds, coupons).
python3 - "$DIR/smallest.sqlite" "$IMPORT_BARCODES" > "$DIR/barcodes.txt" <<'PY'
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
    "$BIN/crates" import --db "$HOMEDIR/crates.sqlite" --catalogue "$DIR/smallest.sqlite" "$DIR/barcodes.txt" \
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
