#!/usr/bin/env bash
# The sync's memory and pace (issue 16), in release mode: `crates sync --pull` of a Discogs
# collection of COPIES instances (default 5,000, then 4x as many, to show that memory does
# not grow with the collection) from the loopback server (Tests/DiscogsServer/server.py)
# into a fresh database, under /usr/bin/time -v; then a second sync, which must send only
# the listing requests and change nothing. Prints peak RSS, time and requests of each.
#
# The server runs at Discogs' rate (60 requests a minute), which a 5,000-copy pull stays
# under (52 requests); the larger run raises the server's limit so that it does not wait
# minutes for the window (the client paces itself by the server's X-Discogs-Ratelimit).
#
# Usage: scripts/bench-sync.sh [SCRATCH_PATH]   Environment: COPIES (default 5000).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH="${1:-${BENCH_SCRATCH_PATH:-.build}}"
COPIES="${COPIES:-5000}"
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product crates >&2
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/crates"
DIR="$(mktemp -d "${TMPDIR:-/tmp}/crates-bench-sync.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT INT TERM

exec python3 - "$BIN" "$DIR" "$COPIES" <<'PYTHON'
import json, os, random, re, subprocess, sys, urllib.request

binary, directory, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
root = os.getcwd()
TOKEN = "bench-sync-token"
GENRES = ["Rock", "Electronic", "Jazz", "Hip Hop", "Classical", "Funk / Soul", "Pop", "Reggae", "Folk, World, & Country"]

def server(limit):
    process = subprocess.Popen(
        ["python3", os.path.join(root, "Tests/DiscogsServer/server.py"), "--fixtures", os.path.join(root, "Fixtures/discogs"),
         "--token", TOKEN, "--limit", str(limit)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    port = int(process.stdout.readline())
    return process, "http://127.0.0.1:%d" % port

def control(base, path, body=None):
    request = urllib.request.Request(base + path, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read() or b"{}")

def seed(base, count):
    rng = random.Random(16)
    instances = []
    for i in range(count):
        rid = 100_000 + i * 7
        info = {"id": rid, "title": "Title %d" % i, "year": 1960 + rng.randrange(60),
                "artists": [{"name": "Artist %d" % rng.randrange(count // 3 + 1), "anv": "", "join": ""}],
                "labels": [{"name": "Label %d" % rng.randrange(300), "catno": "CAT-%05d" % i}],
                "formats": [{"name": rng.choice(["Vinyl", "CD"]), "qty": "1", "descriptions": ["LP", "Album"]}],
                "genres": [rng.choice(GENRES)], "styles": [], "thumb": "", "cover_image": ""}
        notes = [{"field_id": 1, "value": rng.choice(["Mint (M)", "Very Good Plus (VG+)", "Good (G)"])},
                 {"field_id": 3, "value": "note %d\nsecond line" % i}]
        instances.append({"release_id": rid, "rating": rng.randrange(6), "basic_information": info, "notes": notes})
    control(base, "/_control/collection/seed", json.dumps({"instances": instances}).encode())

def run(environment, arguments):
    timed = subprocess.run(["/usr/bin/time", "-v", binary] + arguments, env=environment, capture_output=True, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timed.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", timed.stderr).group(1)
    return timed.returncode, rss, wall, timed.stdout.strip().splitlines()

print("crates sync: a Discogs collection pulled into a fresh database (release build)")
for count, limit in [(copies, 60), (copies * 4, 100_000)]:
    process, base = server(limit)
    try:
        seed(base, count)
        work = os.path.join(directory, "run-%d" % count)
        os.makedirs(work)
        environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_STATE_HOME=os.path.join(work, "state"),
                           CRATES_DISCOGS_API=base, CRATES_DB=os.path.join(work, "crates.sqlite"), LANG="C.UTF-8")
        subprocess.run([binary, "auth", "--token"], input=TOKEN + "\n", env=environment, check=True, capture_output=True, text=True)
        status, rss, wall, out = run(environment, ["sync", "--pull"])
        print("  %6d copies, first sync:  exit %d, peak RSS %6.1f MB, %s wall; %s" % (count, status, rss / 1024, wall, out[0] if out else ""))
        before = control(base, "/_control/collection/stats")["requests"]
        status2, rss2, wall2, out2 = run(environment, ["sync"])
        after = control(base, "/_control/collection/stats")["requests"]
        sent = {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)}
        print("  %6d copies, second sync: exit %d, peak RSS %6.1f MB, %s wall; requests %s" % (count, status2, rss2 / 1024, wall2, sent))
        if status or status2 or any(k not in ("folders", "fields", "folder_releases") for k in sent):
            print("  FAILED: %s" % (out + out2))
            sys.exit(1)
    finally:
        process.kill()
empty_process, base = server(60)
try:
    work = os.path.join(directory, "empty")
    os.makedirs(work)
    environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), CRATES_DISCOGS_API=base,
                       CRATES_DB=os.path.join(work, "crates.sqlite"), LANG="C.UTF-8")
    subprocess.run([binary, "auth", "--token"], input=TOKEN + "\n", env=environment, check=True, capture_output=True, text=True)
    status, rss, wall, out = run(environment, ["sync"])
    print("  %6d copies (baseline):   exit %d, peak RSS %6.1f MB, %s wall" % (0, status, rss / 1024, wall))
finally:
    empty_process.kill()
PYTHON
