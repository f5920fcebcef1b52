#!/usr/bin/env bash
# The import benchmark of issue 6, in release mode: `crates import --no-lookup` of 100,000
# valid GTINs (generated with a fixed seed) into a fresh database, RUNS times (default 5);
# prints every time, the median, its ratio to the 3 s target and the peak memory (RSS).
# Then the same file with 1% of its lines made invalid: checks that every one of them is
# reported on stderr with its line number, and that the exit status says lines were refused.
#
# Usage: scripts/bench-import.sh [SCRATCH_PATH]   (or BENCH_SCRATCH_PATH=…; default .build)
# Environment: RUNS (default 5), LINES (default 100000).
# Exits non-zero when the median misses the target or an invalid line goes unreported.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH="${1:-${BENCH_SCRATCH_PATH:-.build}}"
RUNS="${RUNS:-5}"
LINES="${LINES:-100000}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates >&2
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-import.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM

exec python3 - "$BIN" "$DIR" "$RUNS" "$LINES" <<'PYTHON'
import os, random, statistics, subprocess, sys, time

binary, directory, runs, lines = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
TARGET = 3.0

def check_digit(body):
    # GS1 mod-10: weights 3, 1, 3, ... from the rightmost digit of the body.
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)

# GS1 prefixes of member organisations only (no ISBN, ISSN, coupon or in-store ranges), so
# every line is a record to add: 300-379 France, 400-440 Germany, 500-509 UK, 690-699 China,
# 760-769 Switzerland, 870-879 Netherlands, and UPC-A (0 + 001-019 US).
prefixes = ([str(p) for p in range(300, 380)] + [str(p) for p in range(400, 441)] + [str(p) for p in range(500, 510)]
            + [str(p) for p in range(690, 700)] + [str(p) for p in range(760, 770)] + [str(p) for p in range(870, 880)]
            + ["0%02d" % p for p in range(1, 20)])
rng = random.Random(20240601)
gtins = []
for _ in range(lines):
    body = rng.choice(prefixes) + "".join(rng.choice("0123456789") for _ in range(9))
    gtins.append(body + check_digit(body))
valid = os.path.join(directory, "valid.txt")
with open(valid, "w") as f:
    f.write("\n".join(gtins) + "\n")

environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(directory, "config"), LANG="C.UTF-8")

def run(path, database):
    start = time.perf_counter()
    process = subprocess.Popen([binary, "import", "--no-lookup", "--db", database, path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    run.cpu = usage.ru_utime + usage.ru_stime
    return elapsed, usage.ru_maxrss / 1024.0, process.returncode, stderr.decode("utf-8", "replace")

print("crates import --no-lookup: %d GTINs into a fresh database, %d runs (release build); load average %.2f %.2f %.2f"
      % (lines, runs, *os.getloadavg()))
times, peaks, cpus = [], [], []
for i in range(runs):
    database = os.path.join(directory, "run%d.sqlite" % i)
    elapsed, peak, status, stderr = run(valid, database)
    if status != 0:
        print("run %d failed with exit status %d:\n%s" % (i + 1, status, stderr))
        sys.exit(1)
    times.append(elapsed)
    cpus.append(run.cpu)
    peaks.append(peak)
median = statistics.median(times)
print("  times: " + " ".join("%.2f s" % t for t in times))
print("  median %.2f s; target %.1f s: ratio %.2f (%s)" % (median, TARGET, median / TARGET,
                                                          "met" if median < TARGET else "MISSED"))
print("  CPU (user + system) median %.2f s (on a shared machine the wall clock also counts the waits for a core)"
      % statistics.median(cpus))
print("  peak RSS %.1f MB (largest of the runs); load average after %.2f %.2f %.2f" % (max(peaks), *os.getloadavg()))

# 1% invalid: every 100th line, alternately a wrong check digit and a letter.
invalid_lines = []
mixed = list(gtins)
for n in range(99, lines, 100):
    g = mixed[n]
    if (n // 100) % 2 == 0:
        mixed[n] = g[:-1] + str((int(g[-1]) + 1) % 10)
    else:
        mixed[n] = g[:5] + "O" + g[6:]   # a letter O for a zero, the classic typo
    invalid_lines.append(n + 1)
path = os.path.join(directory, "one-percent-invalid.txt")
with open(path, "w") as f:
    f.write("\n".join(mixed) + "\n")
elapsed, peak, status, stderr = run(path, os.path.join(directory, "invalid.sqlite"))
prefix = path + ":"
reported = set()
for line in stderr.splitlines():
    if line.startswith(prefix):
        number = line[len(prefix):].split(":", 1)[0]
        if number.isdigit():
            reported.add(int(number))
expected = set(invalid_lines)
missing, extra = sorted(expected - reported), sorted(reported - expected)
print("1%% invalid: %d of %d lines invalid; %d reported with their line number; %.2f s; exit status %d"
      % (len(expected), lines, len(reported & expected), elapsed, status))
ok = median < TARGET and not missing and not extra and status == 2
if missing:
    print("  NOT REPORTED: lines " + ", ".join(map(str, missing[:20])))
if extra:
    print("  REPORTED BUT VALID: lines " + ", ".join(map(str, extra[:20])))
if status != 2:
    print("  expected exit status 2 (lines refused), got %d" % status)
sys.exit(0 if ok else 1)
PYTHON
