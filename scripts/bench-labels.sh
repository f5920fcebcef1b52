#!/usr/bin/env bash
# The labels benchmark: `crates labels --all --contents` (release build) over collections of
# N places side by side (each holding 2 records) and over a chain of places 1,000 deep, RUNS
# times each (default 3); prints the median, seconds per 1,000 places, and the ratio of the
# largest collection's time per place to the smallest's: near 1 when the work grows with the
# places (it was quadratic: 2,000 places took 22 times 500's).
#
# The places and records are written straight into a collection crates made (a thousand
# `crates location add` would measure process starts, not the labels).
#
# Usage: scripts/bench-labels.sh [SCRATCH_PATH]   (or BENCH_SCRATCH_PATH=…; default .build)
# Environment: RUNS (default 3), SIZES (default "500 2000 10001").
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH="${1:-${BENCH_SCRATCH_PATH:-.build}}"
RUNS="${RUNS:-3}"
SIZES="${SIZES:-500 2000 10001}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates >&2
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-labels.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM

exec python3 - "$BIN" "$DIR" "$RUNS" "$SIZES" <<'PYTHON'
import os, sqlite3, statistics, subprocess, sys, time

binary, directory, runs, sizes = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(n) for n in sys.argv[4].split()]

def collection(name, places, chain):
    path = os.path.join(directory, name + ".sqlite")
    env = dict(os.environ, CRATES_DB=path)
    # crates makes the collection (schema and migrations); the places and records go in by SQL.
    subprocess.run([binary, "location", "add", "Seed"], env=env, check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM location")
    now = time.time()
    parent = None
    for i in range(1, places + 1):
        db.execute("INSERT INTO location (id, parentID, name, nameKey, createdAt) VALUES (?, ?, ?, ?, ?)",
                   (i, parent, "Place %d" % i, "place %d" % i, now))
        if chain and i < 1000:
            parent = i
    db.commit()
    db.close()
    # Two records in each place: imported as barcodes (no lookup), then put in the places.
    codes = os.path.join(directory, name + ".txt")
    with open(codes, "w") as f:
        for n in range(2 * places):
            body = "50%010d" % n
            total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
            f.write(body + str((10 - total % 10) % 10) + "\n")
    subprocess.run([binary, "import", "--no-lookup", codes], env=env, check=True, capture_output=True)
    db = sqlite3.connect(path)
    db.execute("UPDATE record SET locationID = (id - 1) %% %d + 1" % places)
    db.commit()
    db.close()
    return path

def timed(path):
    times = []
    for _ in range(runs):
        out = os.path.join(directory, "labels.pdf")
        start = time.monotonic()
        subprocess.run([binary, "labels", "--all", "--contents", "--layout", "a4-3x7", "-o", out, "--db", path],
                       check=True, capture_output=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)

rows = []
for places in sizes:
    rows.append(("side by side", places, timed(collection("flat%d" % places, places, False))))
rows.append(("a chain 1,000 deep", 2000, timed(collection("chain", 2000, True))))
print("crates labels --all --contents, median of %d runs:" % runs)
for kind, places, seconds in rows:
    print("  %6d places %-18s %8.2f s   %6.3f s per 1,000 places" % (places, kind, seconds, seconds / places * 1000))
flat = [r for r in rows if r[0] == "side by side"]
if len(flat) > 1:
    small, large = flat[0], flat[-1]
    print("  time per place, %d against %d places: ratio %.2f (1.00 is linear)" % (
        large[1], small[1], (large[2] / large[1]) / (small[2] / small[1])))
PYTHON
