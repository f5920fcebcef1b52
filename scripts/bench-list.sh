#!/usr/bin/env bash
# `crates list` and `crates list --json` of a collection (release build, as processes, output
# to /dev/null) against the sqlite3 shell printing the same columns in the same order (the
# record joined with its release and place, in the list's order), in the same run, RUNS
# times each, interleaved so that the machine's load weighs on all three alike. Prints the
# median wall clock and CPU time (user + system, of the process) of each, the two ratios to
# sqlite3 and the target (at most 3x sqlite3), with the load average before and after.
#
# Usage: scripts/bench-list.sh DATABASE [SCRATCH_PATH]   (scripts/bench.sh passes the
#        million-record collection it built; default scratch path .build)
# Environment: RUNS (default 3).
# Exits non-zero when a median wall-clock ratio misses the target.
set -euo pipefail
cd "$(dirname "$0")/.."
DB="${1:?usage: scripts/bench-list.sh DATABASE [SCRATCH_PATH]}"
SCRATCH="${2:-${BENCH_SCRATCH_PATH:-.build}}"
RUNS="${RUNS:-3}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates >&2
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates"
SQLITE3="$(command -v sqlite3)" || { echo "the sqlite3 shell is not installed (scripts/install-deps.sh)" >&2; exit 1; }
CONFIG="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-list.XXXXXX")"
trap 'rm -rf "$CONFIG"' EXIT INT TERM

exec python3 - "$BIN" "$SQLITE3" "$DB" "$RUNS" "$CONFIG" <<'PYTHON'
import os, statistics, subprocess, sys, time

binary, sqlite3, database, runs, config = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
TARGET = 3.0
# What `crates list` prints, column for column (id, gtin, state, section, artist, title,
# format, year, label, catno, release_id, added, collector, place), as SQLite has it: the
# collector's value where set, else the release's; in the list's default order (by artist).
QUERY = """
SELECT r.id, r.gtin, r.lookupState, r.sectionKey, coalesce(r.ownArtist, rel.artist), coalesce(r.ownTitle, rel.title),
       coalesce(r.ownFormat, rel.formatsJSON), coalesce(r.ownYear, rel.year), coalesce(r.ownLabel, rel.labelsJSON),
       coalesce(r.ownCatno, rel.labelsJSON), r.releaseID, r.addedAt, r.ownSearchText, l.name
FROM record r LEFT JOIN release rel ON rel.id = r.releaseID LEFT JOIN location l ON l.id = r.locationID
ORDER BY r.sectionKey, r.artistKey, r.id;
"""
environment = dict(os.environ, XDG_CONFIG_HOME=config, LANG="C.UTF-8")
commands = {
    "sqlite3": [sqlite3, "-readonly", "-separator", "\t", database, QUERY],
    "list": [binary, "list", "--db", database],
    "list --json": [binary, "list", "--json", "--db", database],
}

def run(command):
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=null, stderr=subprocess.PIPE, env=environment)
        stderr = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s failed: %s" % (" ".join(command[:3]), stderr.decode("utf-8", "replace")))
    return elapsed, usage.ru_utime + usage.ru_stime

records = subprocess.run([sqlite3, "-readonly", database, "SELECT COUNT(*) FROM record"], capture_output=True,
                         text=True, check=True).stdout.strip()
print("crates list against sqlite3: %s records, %d runs each, interleaved; load average %.2f %.2f %.2f"
      % (records, runs, *os.getloadavg()))
walls = {name: [] for name in commands}
cpus = {name: [] for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        wall, cpu = run(command)
        walls[name].append(wall)
        cpus[name].append(cpu)
base_wall, base_cpu = statistics.median(walls["sqlite3"]), statistics.median(cpus["sqlite3"])
print("  %-12s wall %6.2f s   CPU %6.2f s   (the same columns, the same order)" % ("sqlite3", base_wall, base_cpu))
ok = True
for name in ("list", "list --json"):
    wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
    met = wall / base_wall <= TARGET
    ok = ok and met
    print("  %-12s wall %6.2f s   CPU %6.2f s   %.2fx sqlite3 wall, %.2fx CPU; target <= %gx: %s"
          % (name, wall, cpu, wall / base_wall, cpu / base_cpu, TARGET, "met" if met else "MISSED"))
print("  load average after: %.2f %.2f %.2f" % os.getloadavg())
sys.exit(0 if ok else 1)
PYTHON
