#!/usr/bin/env bash
# `crates check` at a record fair (release mode): a catalogue of RELEASES generated releases
# (default 1,000,000; `crates-bench generate-dump`, then `crates catalogue build`) and a
# collection of COPIES copies (default 100,000) matched to its releases, a tenth of them
# priced, and a few hundred releases on the wantlist (`crates-bench seed-check`). Discogs'
# API is a closed loopback port: nothing is asked, as offline at a fair. Prints:
#   - `crates check CODE` as a process, one barcode each run (owned, new and wanted codes in
#     turn): median and p99 over RUNS runs (default 101), and the ratio to the target
#     (median <= 30 ms);
#   - 1,000 codes through standard input (`crates check < codes`): median of 5, ratio to
#     the target (<= 2 s);
#   - the collection UI in check mode (crates-tui-bench --check): from the Enter of a wedge
#     scan to its verdict drawn, p50 and p99 over 1,000 scans, ratio to the target (p99 <= 20 ms).
# A benchmark, not a test: it asserts nothing.
#
# Usage: scripts/bench-check.sh [RELEASES] [COPIES] [RUNS]
#        Environment: BENCH_SCRATCH_PATH (the build's scratch path, default .build),
#        BENCH_DIR (keep the generated files there and reuse them on the next run).
set -euo pipefail
cd "$(dirname "$0")/.."
RELEASES="${1:-1000000}"
COPIES="${2:-100000}"
RUNS="${3:-101}"
SCRATCH="${BENCH_SCRATCH_PATH:-.build}"
for product in crates crates-bench crates-tui-bench; do
  swift build -c release --static-swift-stdlib -j 1 --scratch-path "$SCRATCH" --product "$product" >&2
done
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"
if [ -n "${BENCH_DIR:-}" ]; then
  DIR="$BENCH_DIR"; mkdir -p "$DIR"
else
  DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-check.XXXXXX")"
  trap 'rm -rf "$DIR"' EXIT INT TERM
fi
export XDG_CONFIG_HOME="$DIR/config" XDG_DATA_HOME="$DIR/data" XDG_CACHE_HOME="$DIR/cache"
export CRATES_DISCOGS_API="http://127.0.0.1:9" CRATES_DB="$DIR/collection.sqlite" CRATES_CATALOGUE="$DIR/catalogue.sqlite"
export LANG=C.UTF-8

if [ ! -s "$DIR/catalogue.sqlite" ]; then
  "$BIN/crates-bench" generate-dump --releases "$RELEASES" --seed 3 --out "$DIR/dump.xml.gz"
  "$BIN/crates" catalogue build --date 20260601 --catalogue "$DIR/catalogue.sqlite" "$DIR/dump.xml.gz" >&2
  rm -f "$DIR/dump.xml.gz"
fi
if [ ! -s "$DIR/collection.sqlite" ]; then
  # Barcodes of the catalogue in a fixed scattered order, as EAN-13 digits: the first COPIES
  # become the collection, those after are codes it does not hold (a hundredth wanted).
  # Only a record's barcodes: not a shop's price labels (02, 04, 2), UPC coupons (05), ISSNs, ISBNs or coupons
  # (977–979, 98, 99), which a check refuses.
  sqlite3 "$DIR/catalogue.sqlite" \
    "SELECT printf('%013d', gtin) FROM barcode WHERE gtin BETWEEN 100000000000 AND 9999999999999 GROUP BY gtin ORDER BY (gtin * 2654435761) % 1000003, gtin" \
    > "$DIR/barcodes"
  awk -v n="$((COPIES + 20000))" '!/^(0[245]|2|97[789]|98|99)/ { print; if (++kept >= n) exit }' "$DIR/barcodes" > "$DIR/gtins"
  rm -f "$DIR/barcodes"
  "$BIN/crates-bench" seed-check --db "$DIR/collection.sqlite" --catalogue "$DIR/catalogue.sqlite" --file "$DIR/gtins" --copies "$COPIES"
fi
LISTED="$("$BIN/crates" catalogue status --json | sed 's/.*"releases":\([0-9]*\).*/\1/')"
HELD="$(sqlite3 "$DIR/collection.sqlite" 'SELECT COUNT(*) FROM record')"
WANTED="$(sqlite3 "$DIR/collection.sqlite" 'SELECT COUNT(*) FROM want')"
# The codes checked: owned (from the collection), not owned (after it), wanted, in turn.
# (awk alone, each stopping at its count: a `head` closing a pipe would stop the script.)
awk -v n="$COPIES" 'NR <= n && NR % 97 == 1 { print; if (++kept >= 500) exit }' "$DIR/gtins" > "$DIR/owned"
awk -v n="$COPIES" 'NR > n { print; if (++kept >= 500) exit }' "$DIR/gtins" > "$DIR/new"
paste -d '\n' "$DIR/owned" "$DIR/new" | awk 'NF { print; if (++kept >= 1000) exit }' > "$DIR/codes" || true
echo "catalogue: $LISTED releases; collection: $HELD copies, $WANTED wants; load: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$BIN/crates" "$DIR/codes" "$RUNS" <<'PY'
import statistics, subprocess, sys, time
crates, codes_file, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes = [line.strip() for line in open(codes_file) if line.strip()]
samples = []
for i in range(runs):
    code = codes[i % len(codes)]
    started = time.perf_counter()
    done = subprocess.run([crates, "check", "--json", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    samples.append(time.perf_counter() - started)
    if done.returncode != 0:
        sys.exit("crates check %s: exit %d: %s" % (code, done.returncode, done.stderr.decode()))
samples.sort()
median = statistics.median(samples)
p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
# The floor: starting the same binary and doing nothing (it links some 70 shared
# libraries), measured the same way, between the same other processes.
floor = []
for _ in range(runs):
    started = time.perf_counter()
    subprocess.run([crates, "--version"], stdout=subprocess.DEVNULL)
    floor.append(time.perf_counter() - started)
print("crates check CODE as a process, %d runs: median %.1f ms, p99 %.1f ms  (target: median <= 30 ms, ratio %.2f)"
      % (runs, median * 1000, p99 * 1000, median / 0.030))
print("   the floor, crates --version as a process: median %.1f ms (the check's own: %.1f ms)"
      % (statistics.median(floor) * 1000, (median - statistics.median(floor)) * 1000))
whole = []
for _ in range(5):
    with open(codes_file, "rb") as stdin:
        started = time.perf_counter()
        done = subprocess.run([crates, "check"], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        whole.append(time.perf_counter() - started)
    if done.returncode != 0:
        sys.exit("crates check < codes: exit %d: %s" % (done.returncode, done.stderr.decode()))
median = statistics.median(whole)
print("crates check < %d codes, 5 runs: median %.2f s (%.2f ms a code), max %.2f s  (target <= 2 s, ratio %.2f)"
      % (len(codes), median, median / len(codes) * 1000, max(whole), median / 2.0))
PY
"$BIN/crates-tui-bench" --db "$DIR/collection.sqlite" --catalogue "$DIR/catalogue.sqlite" --check "$DIR/codes"
