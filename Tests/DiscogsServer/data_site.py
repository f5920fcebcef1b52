#!/usr/bin/env python3
"""A stand-in for Discogs' data site (data.discogs.com) on loopback, for `crates catalogue fetch`.

Behaves as the real site was measured to (August 2026): files come through
  GET /?download=data%2FYYYY%2Fdiscogs_YYYYMMDD_<kind>
for any date; the releases file is a small generated .xml.gz, the same bytes for every date;
discogs_YYYYMMDD_CHECKSUM.txt lists SHA-256 digests with ONE space before the name, its lines
shuffled; a HEAD gives no Content-Length; Range is ignored (200 and the whole file) unless
told to honour it (206); after a number of requests (when set) every request gets 429 with a
Retry-After.

Binds 127.0.0.1 on an ephemeral port and prints the port as the first line of stdout.
Exits when its stdin closes or its parent is gone (loopback.py), so a killed test never
leaves it running.

Control endpoints (never counted, never throttled), GET /_control/NAME?QUERY:
  stats                       {"requests": N, "log": [{"name", "status", "range", "sent"}...]}
  reset                       counters and every setting below back to their defaults
  range?honour=1|0            answer a Range with 206 from its start (default 0: ignore it)
  drop?after=BYTES&count=N    the next N releases downloads close the connection after BYTES
                              of the body
  hold?after=BYTES            the next releases download sends BYTES, then waits until
                              release; stats' "held" says it is waiting
  release                     lets a held download go on
  throttle?after=N&retry=S    after N more requests, every request gets 429 with
                              Retry-After: S
  missing?month=current       no checksum file for the month of today (UTC): its dump is not
                              complete yet
  missing?date=YYYYMMDD       no checksum file for that date
  checksum?wrong=1            the checksum file's releases line names a wrong digest
  length?send=0|1             whether a download's answer carries Content-Length (default 1)
"""
import argparse
import datetime
import gzip
import hashlib
import json
import random
import re
import threading
import urllib.parse

import loopback  # start, port line, quiet, exit with stdin (loopback.py)

DOWNLOAD = re.compile(r"^data/(\d{4})/discogs_(\d{8})_(releases\.xml\.gz|CHECKSUM\.txt|artists\.xml\.gz|labels\.xml\.gz|masters\.xml\.gz)$")


def generated_dump(releases, seed):
    """A small releases dump in the 2025 format: random enough that gzip keeps it sizeable."""
    rng = random.Random(seed)
    parts = ["<releases>"]
    for rid in range(1, releases + 1):
        barcode = "".join(rng.choice("0123456789") for _ in range(13))
        words = " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
                         for _ in range(rng.randint(1, 4)))
        parts.append(
            f'<release id="{rid}"><artists><artist><id>{rng.randint(1, 10**6)}</id><name>{words.title()}</name>'
            f'</artist></artists><title>{words}</title><labels><label name="Label {rid % 97}" '
            f'catno="CAT {rng.randint(1, 999)}" id="{rng.randint(1, 10**5)}"/></labels>'
            f'<identifiers><identifier type="Barcode" value="{barcode}" description=""/></identifiers>'
            f'<country>UK</country><released>{rng.randint(1960, 2025)}</released></release>\n')
    parts.append("</releases>\n")
    return gzip.compress("".join(parts).encode("utf-8"), mtime=0)


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.released = threading.Condition(self.lock)
        self.body = generated_dump(args.releases, args.seed)
        self.digest = hashlib.sha256(self.body).hexdigest()
        with self.lock:
            self.reset()

    def reset(self):
        """Called with the lock held."""
        self.requests = 0
        self.log = []
        self.honour_range = False
        self.drops = []          # [after_bytes, count]
        self.hold_after = None
        self.holding = False
        self.held = 0
        self.throttle_at = None  # request number from which every request gets 429
        self.retry_after = "3600"
        self.missing_dates = set()
        self.missing_current = False
        self.wrong_checksum = False
        self.send_length = True
        self.released.notify_all()

    def checksum_text(self, date):
        rng = random.Random(date)
        lines = []
        for kind in ("artists.xml.gz", "labels.xml.gz", "masters.xml.gz", "releases.xml.gz"):
            digest = self.digest if kind == "releases.xml.gz" else "".join(rng.choice("0123456789abcdef") for _ in range(64))
            if kind == "releases.xml.gz" and self.wrong_checksum:
                digest = ("0" if digest[0] != "0" else "1") + digest[1:]
            lines.append(f"{digest} discogs_{date}_{kind}")
        rng.shuffle(lines)
        return ("\n".join(lines) + "\n").encode("ascii")


class Handler(loopback.QuietHandler):
    state = None

    def do_HEAD(self):
        self.answer(head=True)

    def do_GET(self):
        self.answer(head=False)

    def answer(self, head):
        split = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(split.query))
        if split.path.startswith("/_control/"):
            return self.control(split.path[len("/_control/"):], query)
        st = self.state
        with st.lock:
            st.requests += 1
            number = st.requests
            throttled = st.throttle_at is not None and number >= st.throttle_at
            entry = {"name": None, "status": None, "range": self.headers.get("Range"), "sent": 0, "head": head}
            st.log.append(entry)
        if throttled:
            entry["status"] = 429
            return self.send_small(429, b"Too Many Requests\n", {"Retry-After": st.retry_after})
        match = DOWNLOAD.match(query.get("download", ""))
        if split.path != "/" or not match:
            entry["status"] = 404
            return self.send_small(404, b"Not Found\n")
        year, date, kind = match.groups()
        name = f"discogs_{date}_{kind}"
        entry["name"] = name
        if kind == "CHECKSUM.txt":
            today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m01")
            if year != date[:4] or date in st.missing_dates or (st.missing_current and date == today):
                entry["status"] = 404
                return self.send_small(404, b"Not Found\n")
            entry["status"] = 200
            return self.send_small(200, st.checksum_text(date), {"Content-Type": "text/plain"})
        if kind != "releases.xml.gz" or year != date[:4]:
            entry["status"] = 404
            return self.send_small(404, b"Not Found\n")
        self.send_file(entry, head)

    def send_small(self, status, body, headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_file(self, entry, head):
        st = self.state
        body = st.body
        start = 0
        status = 200
        asked = self.headers.get("Range")
        with st.lock:
            honour = st.honour_range
            send_length = st.send_length
            drop = None
            if st.drops and not head:
                drop = st.drops[0][0]
                st.drops[0][1] -= 1
                if st.drops[0][1] <= 0:
                    st.drops.pop(0)
            hold = st.hold_after if not head else None
            st.hold_after = None
        if asked and honour:
            m = re.match(r"^bytes=(\d+)-$", asked.strip())
            if m:
                start = int(m.group(1))
                if start >= len(body):
                    entry["status"] = 416
                    return self.send_small(416, b"", {"Content-Range": f"bytes */{len(body)}"})
                status = 206
        entry["status"] = status
        self.send_response(status)
        self.send_header("Content-Type", "application/x-gzip")
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        if head:
            # The real site's HEAD says nothing of the size.
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        if send_length:
            self.send_header("Content-Length", str(len(body) - start))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        rest = body[start:]
        if drop is not None:
            self.write_counted(entry, rest[:drop])
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        if hold is not None:
            self.write_counted(entry, rest[:hold])
            self.wfile.flush()
            with st.lock:
                st.holding = True
                st.held += 1
                while st.holding:
                    st.released.wait()
                st.held -= 1
            rest = rest[hold:]
        self.write_counted(entry, rest)
        if not send_length:
            self.close_connection = True

    def write_counted(self, entry, data):
        for i in range(0, len(data), 16384):
            chunk = data[i:i + 16384]
            self.wfile.write(chunk)
            entry["sent"] += len(chunk)

    def control(self, name, query):
        st = self.state
        with st.lock:
            if name == "stats":
                body = json.dumps({"requests": st.requests, "log": st.log, "held": st.held,
                                   "size": len(st.body), "sha256": st.digest}).encode()
            elif name == "reset":
                st.reset()
                body = b"{}"
            elif name == "range":
                st.honour_range = query.get("honour") == "1"
                body = b"{}"
            elif name == "drop":
                st.drops.append([int(query["after"]), int(query.get("count", "1"))])
                body = b"{}"
            elif name == "hold":
                st.hold_after = int(query["after"])
                body = b"{}"
            elif name == "release":
                st.holding = False
                st.released.notify_all()
                body = b"{}"
            elif name == "throttle":
                st.throttle_at = st.requests + int(query.get("after", "0")) + 1
                st.retry_after = query.get("retry", "3600")
                body = b"{}"
            elif name == "missing":
                if query.get("month") == "current":
                    st.missing_current = True
                if "date" in query:
                    st.missing_dates.add(query["date"])
                body = b"{}"
            elif name == "checksum":
                st.wrong_checksum = query.get("wrong") == "1"
                body = b"{}"
            elif name == "length":
                st.send_length = query.get("send", "1") == "1"
                body = b"{}"
            else:
                body = None
        if body is None:
            return self.send_small(404, b"no such control\n")
        self.send_small(200, body, {"Content-Type": "application/json"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--releases", type=int, default=3000, help="releases in the generated dump")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    Handler.state = State(args)
    loopback.serve(Handler)


if __name__ == "__main__":
    main()
