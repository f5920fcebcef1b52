#!/usr/bin/env python3
"""A Discogs API stand-in on loopback, for crates' tests and lookup benchmark.

Serves Fixtures/discogs/ (search by barcode text, releases, identity; search by fields and
the releases of its corpus through search_index.py), the three OAuth 1.0a
endpoints and the authorize page; verifies HMAC-SHA1 signatures with its own base-string
code (RFC 5849 section 3.4, written independently of the Swift signer) and checks tokens;
enforces a moving rate-limit window with the three X-Discogs-Ratelimit headers and 429s;
injects faults per barcode (fixture index) or on demand (/_control/fault).

Binds 127.0.0.1 on an ephemeral port and prints the port as the first line of stdout.
Exits when its stdin closes, so a killed test never leaves it running.

Control endpoints (never rate-limited, never counted):
  GET /_control/stats                     counters as JSON (field searches: "field_searches")
  GET /_control/reset                     clears counters, window, faults, nonces
  GET /_control/fault?kind=K&count=N&match=TEXT
                                          the next N requests whose path contains TEXT get K
  GET /_control/hold?match=TEXT           requests whose path (with query) contains TEXT wait,
                                          unanswered, until released; stats' "held" counts them
  GET /_control/hold?match=TEXT&count=N   the next N such requests only, held once the window
                                          admitted them (lookups.py)
  GET /_control/release[?match=TEXT]      lets the held requests for TEXT (all: no match) go on
Fault kinds: html500, json500, wrongtype, truncated, redirect, portal (a redirect to another
host, 127.0.0.2, as a captive portal answers), slow, 404, 401, 429, 429-retryN (with "Retry-After: N", e.g. 429-retry1), drop (the
connection closed without an answer, as a timeout or a reset ends a request); and reset,
stall, hold (lookups.py).
The User Collection endpoints and their controls (/_control/collection/…): see collection.py.
The User Wantlist endpoints and their controls (/_control/wants/…): see wants.py.
Cover images (/images/…), image addresses in signed answers only, and /_control/covers: see covers.py.
Generated releases for any GTIN, a seeded fault mix, holds (/_control/hold, /_control/release)
and the in-flight counters: see lookups.py.
"""
import argparse
import base64
import collection   # the User Collection endpoints (collection.py, next to this file)
import covers       # cover images, and image addresses only in signed answers (covers.py)
import gzip
import hashlib
import hmac
import json
import loopback      # start, port line, quiet, exit with stdin (loopback.py)
import lookups       # generated releases, the fault mix, holds (lookups.py, next to this file)
import marketplace   # the collection's value, marketplace stats, price suggestions (marketplace.py)
import os
import threading
import time
import urllib.parse
from collections import deque

import search_index
import wants         # the User Wantlist endpoints (wants.py)

UNAUTHENTICATED = "You must authenticate to access this resource."


def rfc5849_encode(text):
    """RFC 5849 section 3.6: everything but ALPHA / DIGIT / - . _ ~ as %XX (uppercase)."""
    return urllib.parse.quote(text, safe="-._~")


def parse_form(text):
    """application/x-www-form-urlencoded pairs, in order, blank values kept."""
    return urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=False)


def parse_oauth_header(value):
    """Authorization: OAuth k="v", k2="v2" -> dict of decoded params (realm dropped)."""
    params = {}
    body = value[len("OAuth "):]
    for part in body.split(","):
        part = part.strip()
        if not part or "=" not in part:
            continue
        k, v = part.split("=", 1)
        v = v.strip()
        if len(v) < 2 or v[0] != '"' or v[-1] != '"':
            raise ValueError("unquoted OAuth parameter")
        params[urllib.parse.unquote(k.strip())] = urllib.parse.unquote(v[1:-1])
    params.pop("realm", None)
    return params


def base_string(method, host_header, path_and_query, body_pairs, oauth_params):
    """RFC 5849 section 3.4.1, for a request that reached this (plain http) server."""
    split = urllib.parse.urlsplit(path_and_query)
    host = host_header.lower()
    if host.endswith(":80"):
        host = host[:-3]
    uri = "http://" + host + (split.path or "/")
    pairs = parse_form(split.query) + list(body_pairs)
    pairs += [(k, v) for k, v in oauth_params.items() if k != "oauth_signature"]
    encoded = sorted((rfc5849_encode(k), rfc5849_encode(v)) for k, v in pairs)
    normalized = "&".join(k + "=" + v for k, v in encoded)
    return "&".join(rfc5849_encode(x) for x in (method.upper(), uri, normalized))


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.released = threading.Condition(self.lock)
        self.held = 0          # requests waiting on a hold now
        root = args.fixtures
        with open(args.index or os.path.join(root, "search", "index.json"), encoding="utf-8") as f:
            self.index = {k: v for k, v in json.load(f).items() if not k.startswith("_")}
        self.tokens = set(t for t in args.token if t)
        self.consumers = dict(c.split(":", 1) for c in args.consumer if ":" in c)
        rt = dict(parse_form(self.read("oauth/request_token.txt")))
        at = dict(parse_form(self.read("oauth/access_token.txt")))
        self.request_token = (rt["oauth_token"], rt["oauth_token_secret"])
        self.access_template = (at["oauth_token"], at["oauth_token_secret"])
        lookups.setup(self)
        self.reset()

    def reset(self):
        self.window = deque()
        self.faults = []
        self.holds = set()     # match texts whose requests wait for a release (see control)
        self.nonces = set()
        self.pending = {}      # request token -> {secret, consumer, verifier, authorized}
        self.access = {}       # access token -> {secret, consumer}
        self.stats = {"requests": 0, "throttled": 0, "connections": 0, "max_in_window": 0,
                      "searches": [], "releases": [], "auth": {}, "gzip": 0, "paths": {},
                      "bad_signatures": 0, "first_request_at": None, "last_request_at": None}
        lookups.reset(self)
        marketplace.reset(self)
        covers.reset(self)

    def read(self, rel):
        with open(os.path.join(self.args.fixtures, rel), encoding="utf-8") as f:
            return f.read()

    def wait_if_held(self, path):
        """Blocks this request's thread while a hold matches its path (reset releases too)."""
        with self.lock:
            if not any(m in path for m in self.holds):
                return
            self.held += 1
            try:
                while any(m in path for m in self.holds):
                    self.released.wait()
            finally:
                self.held -= 1

    def take_fault(self, path):
        with self.lock:
            for f in self.faults:
                if f["match"] in path and f["count"] > 0:
                    f["count"] -= 1
                    return f["kind"]
        return None

    def admit(self, limit):
        """Moving window: returns (allowed, used, remaining, retry_after)."""
        now = time.monotonic()
        with self.lock:
            w = self.window
            while w and w[0] <= now - self.args.window:
                w.popleft()
            if len(w) >= limit:
                self.stats["throttled"] += 1
                return False, len(w), 0, max(0.0, w[0] + self.args.window - now)
            w.append(now)
            self.stats["max_in_window"] = max(self.stats["max_in_window"], len(w))
            return True, len(w), limit - len(w), 0.0


class Handler(loopback.QuietHandler):
    server_version = "DiscogsLoopback/1.0"

    def setup(self):
        super().setup()
        with self.server.state.lock:
            self.server.state.stats["connections"] += 1

    # --- responses -------------------------------------------------------------------
    def send(self, status, body, ctype="application/json", headers=None):
        data = body.encode("utf-8") if isinstance(body, str) else body
        if status == 200 and (ctype or "").startswith("application/json") and not self.path.startswith("/_control/"):
            data = covers.rewrite(self, data)
        if getattr(self, "truncate_body", False) and status == 200:
            self.truncate_body = False   # the fault mix's "truncated": the real answer, cut short
            data = data[:max(1, len(data) // 2)]
        if "gzip" in self.headers.get("Accept-Encoding", "") and len(data) > 0:
            data = gzip.compress(data)
            headers = dict(headers or {}, **{"Content-Encoding": "gzip"})
            with self.server.state.lock:
                self.server.state.stats["gzip"] += 1
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def message(self, status, text, headers=None):
        self.send(status, json.dumps({"message": text}), headers=headers)

    def fixture(self, rel, status=200, headers=None):
        self.send(status, self.server.state.read(rel), headers=headers)

    # --- dispatch --------------------------------------------------------------------
    def do_GET(self):
        self.handle_request("GET")

    def do_POST(self):
        self.handle_request("POST")

    def do_DELETE(self):
        self.handle_request("DELETE")

    def do_PUT(self):
        self.handle_request("PUT")

    def handle_request(self, method):
        st = self.server.state
        self.oauth = None   # one handler serves every request of a kept-alive connection
        self.who = None
        self.truncate_body = False
        length = int(self.headers.get("Content-Length", "0") or 0)
        raw_body = self.rfile.read(length) if length else b""
        split = urllib.parse.urlsplit(self.path)
        path = split.path
        query = dict(parse_form(split.query))
        if path.startswith("/images/"):
            return covers.serve(self, path)
        if path.startswith("/_control/covers"):
            return covers.control(self, path, query)
        if path.startswith("/_control/collection/"):
            return collection.control(self, path, query, raw_body)
        if path.startswith("/_control/wants/"):
            return wants.control(self, path, query, raw_body)
        if path.startswith("/_control/"):
            return (marketplace.control(self, path, query) or lookups.control(self, path, query)
                    or self.control(path, query))
        st.wait_if_held(self.path)
        lookups.begin(self)
        try:
            return self.handle_api(method, path, query, raw_body)
        finally:
            lookups.end(self)

    def handle_api(self, method, path, query, raw_body):
        st = self.server.state
        with st.lock:
            st.stats["requests"] += 1
            st.stats["paths"][path] = st.stats["paths"].get(path, 0) + 1
            now = time.monotonic()
            if st.stats["first_request_at"] is None:
                st.stats["first_request_at"] = now
            st.stats["last_request_at"] = now

        if path == "/oauth/authorize":      # the web site's page: no API limits
            return self.authorize(query)

        body_pairs = []
        if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            body_pairs = parse_form(raw_body.decode("utf-8", "replace"))
        who, problem = self.authenticate(method, body_pairs)
        self.who = who
        limit = st.args.limit if who else max(1, st.args.limit * 25 // 60)
        allowed, used, remaining, retry = st.admit(limit)
        rl = {"x-discogs-ratelimit": str(limit), "x-discogs-ratelimit-used": str(used),
              "x-discogs-ratelimit-remaining": str(remaining)}
        if problem:   # wrong credentials: say so first, whatever the window holds
            return self.message(401, problem, rl)
        if not allowed:
            if st.args.retry_after:
                rl["Retry-After"] = str(max(1, int(retry + 0.999)))
            return self.fixture("errors/429.json", 429, rl)

        fault = st.take_fault(self.path)
        if fault is None and path == "/database/search":
            entry = st.index.get(query.get("barcode", ""), {})
            fault = entry.get("fault")
        lookups.hold(self, self.path, fault)   # /_control/hold, or the "hold" fault
        if fault is None:
            fault = lookups.mixed_fault(st, path)
            if fault == "truncated":
                fault = "truncated-real"
        if fault in ("hold", "stall", "reset", "truncated-real"):
            if not lookups.apply_in_place(self, fault):
                return
            fault = None
        if fault:
            return self.fault(fault, rl)
        if marketplace.handles(path):
            return marketplace.handle(self, path, query, who, rl)
        if wants.handles(path):
            return wants.handle(self, method, path, query, raw_body, who, rl)
        if path.startswith("/users/"):
            return collection.handle(self, method, path, query, raw_body, who, rl)

        if path == "/oauth/request_token":
            return self.request_token(who, rl)
        if path == "/oauth/access_token":
            return self.access_token(who, rl)
        if path == "/oauth/identity":
            if not who:
                return self.fixture("errors/401-unauthenticated.json", 401, rl)
            return self.fixture("identity.json", 200, rl)
        if path == "/database/search":
            if not who:   # Discogs' search needs credentials
                return self.fixture("errors/401-unauthenticated.json", 401, rl)
            if search_index.is_field_search(query):
                status, body = search_index.answer(st, query, self.headers.get("Host", ""))
                return self.send(status, body, headers=rl)
            barcode = query.get("barcode", "")
            with st.lock:
                st.stats["searches"].append(barcode)
            if query.get("type") != "release":
                return self.message(400, "crates always searches type=release")
            entry = st.index.get(barcode)
            body = lookups.search_page(st, barcode, entry)
            if body is not None:
                return self.send(200, body, headers=rl)
            return self.fixture("search/" + (entry["fixture"] if entry else "empty.json"), 200, rl)
        if path.startswith("/releases/"):
            rid = path[len("/releases/"):]
            with st.lock:
                st.stats["releases"].append(rid)
            rel = "releases/%s.json" % rid
            if rid.isdigit() and os.path.exists(os.path.join(st.args.fixtures, rel)):
                return self.fixture(rel, 200, rl)
            body = search_index.release(st, rid) or lookups.release_body(st, rid)
            if body:
                return self.send(200, body, headers=rl)
            return self.fixture("errors/404-release.json", 404, rl)
        return self.message(404, "The requested resource was not found.", rl)

    # --- authentication --------------------------------------------------------------
    def authenticate(self, method, body_pairs):
        """Returns (who, problem): who is None for anonymous requests; problem is a 401 text."""
        st = self.server.state
        auth = self.headers.get("Authorization", "") or lookups.query_token(self.path)
        kind = "none"
        who, problem = None, None
        if auth.startswith("Discogs token="):
            kind = "token"
            if auth[len("Discogs token="):] in st.tokens:
                who = "token"
            else:
                problem = "Invalid consumer token. Please register an app before making requests."
        elif auth.startswith("Discogs key="):
            kind = "key"
            try:
                parts = dict(p.strip().split("=", 1) for p in auth[len("Discogs "):].split(","))
            except ValueError:
                parts = {}
            if st.consumers.get(parts.get("key")) == parts.get("secret") and parts.get("key"):
                who = "consumer"
            else:
                problem = "Invalid consumer key/secret. Please register an app before making requests."
        elif auth.startswith("OAuth "):
            kind = "oauth"
            who, problem = self.verify_oauth(method, body_pairs, auth)
        with st.lock:
            st.stats["auth"][kind] = st.stats["auth"].get(kind, 0) + 1
        return who, problem

    def verify_oauth(self, method, body_pairs, auth):
        st = self.server.state
        try:
            p = parse_oauth_header(auth)
        except ValueError:
            return None, "Malformed OAuth header."
        consumer_secret = st.consumers.get(p.get("oauth_consumer_key", ""))
        if consumer_secret is None:
            return None, "Invalid consumer."
        if p.get("oauth_signature_method") != "HMAC-SHA1":
            return None, "Unsupported signature method."
        try:
            ts = int(p.get("oauth_timestamp", ""))
        except ValueError:
            return None, "Missing timestamp."
        if abs(time.time() - ts) > 300:
            return None, "Timestamp out of range."
        nonce = (p["oauth_consumer_key"], p.get("oauth_nonce", ""), ts)
        token = p.get("oauth_token")
        path = urllib.parse.urlsplit(self.path).path
        token_secret = ""
        who = "oauth-consumer"
        if token:
            if path == "/oauth/access_token" and token in st.pending:
                token_secret = st.pending[token]["secret"]
                who = "oauth-request-token"
            elif token in st.access:
                token_secret = st.access[token]["secret"]
                who = "oauth"
            else:
                return None, "Invalid OAuth token."
        key = rfc5849_encode(consumer_secret) + "&" + rfc5849_encode(token_secret)
        base = base_string(method, self.headers.get("Host", ""), self.path, body_pairs, p)
        expected = base64.b64encode(hmac.new(key.encode(), base.encode(), hashlib.sha1).digest()).decode()
        if not hmac.compare_digest(expected, p.get("oauth_signature", "")):
            with st.lock:
                st.stats["bad_signatures"] += 1
            return None, "Invalid OAuth signature."
        with st.lock:
            if not p.get("oauth_nonce") or nonce in st.nonces:
                return None, "Nonce already used."
            st.nonces.add(nonce)
        self.oauth = p
        return who, None

    def request_token(self, who, rl):
        st = self.server.state
        p = getattr(self, "oauth", None)
        if who != "oauth-consumer" or p is None:
            return self.message(401, "Sign the request token request with the consumer key (OAuth).", rl)
        if p.get("oauth_callback") != "oob":
            return self.message(400, "crates asks for oauth_callback=oob.", rl)
        token, secret = st.request_token
        with st.lock:
            st.pending[token] = {"secret": secret, "consumer": p["oauth_consumer_key"],
                                 "verifier": st.args.verifier, "authorized": False}
        self.send(200, "oauth_token=%s&oauth_token_secret=%s&oauth_callback_confirmed=true" % (token, secret),
                  "application/x-www-form-urlencoded", rl)

    def authorize(self, query):
        st = self.server.state
        token = query.get("oauth_token", "")
        with st.lock:
            pending = st.pending.get(token)
            if pending:
                pending["authorized"] = True
        if not pending:
            return self.send(404, "<html><body>Unknown request token.</body></html>", "text/html")
        self.send(200, "<html><body><p>Paste this code into crates:</p><code id=\"verifier\">%s</code></body></html>"
                  % pending["verifier"], "text/html")

    def access_token(self, who, rl):
        st = self.server.state
        p = getattr(self, "oauth", None)
        if who != "oauth-request-token" or p is None:
            return self.message(401, "Sign the access token request with the request token.", rl)
        with st.lock:
            pending = st.pending.get(p["oauth_token"])
            ok = pending and pending["authorized"] and pending["verifier"] == p.get("oauth_verifier")
            if ok:
                del st.pending[p["oauth_token"]]
                token, secret = st.access_template
                st.access[token] = {"secret": secret, "consumer": p["oauth_consumer_key"]}
        if not ok:
            return self.message(401, "Invalid verifier.", rl)
        self.send(200, "oauth_token=%s&oauth_token_secret=%s" % (token, secret),
                  "application/x-www-form-urlencoded", rl)

    # --- faults and control ----------------------------------------------------------
    def fault(self, kind, rl):
        st = self.server.state
        if kind == "html500":
            return self.send(500, "<html><head><title>500 Internal Server Error</title></head><body>"
                                  "<h1>Internal Server Error</h1>\x1b[31m</body></html>", "text/html", rl)
        if kind == "json500":
            return self.fixture("errors/500-query-time.json", 500, rl)
        if kind == "wrongtype":
            return self.send(200, st.read("search/empty.json"), "text/html; charset=utf-8", rl)
        if kind == "truncated":
            return self.send(200, st.read("search/one-hammerfall.json")[:57], "application/json", rl)
        if kind == "redirect":
            return self.send(302, "", None, dict(rl, Location="https://evil.example/database/search"))
        if kind == "portal":
            # A captive portal or a misconfigured proxy: a redirect to another host, here
            # 127.0.0.2 (loopback too, so a client that followed it would reach this server).
            port = self.server.server_address[1]
            return self.send(302, "<html><body>Log in to the network</body></html>", "text/html",
                             dict(rl, Location="http://127.0.0.2:%d/portal/login?from=discogs" % port))
        if kind == "slow":
            time.sleep(st.args.slow)
            return self.fixture("search/empty.json", 200, rl)
        if kind == "404":
            return self.fixture("errors/404-release.json", 404, rl)
        if kind == "401":
            return self.fixture("errors/401-invalid-token.json", 401, rl)
        if kind == "429":
            return self.fixture("errors/429.json", 429, rl)
        if kind.startswith("429-retry") and kind[len("429-retry"):].isdigit():
            # Discogs' 429 with "Retry-After: N" (429-retry1: 1): a client waits N seconds, not a window
            return self.fixture("errors/429.json", 429, dict(rl, **{"Retry-After": kind[len("429-retry"):]}))
        if kind == "drop":
            self.close_connection = True
            return None
        return self.message(500, "unknown fault " + kind, rl)

    def control(self, path, query):
        st = self.server.state
        if path == "/_control/stats":
            with st.lock:   # copy under the lock, answer outside it (send() takes it too)
                stats = json.loads(json.dumps(st.stats))
            with st.lock:
                stats["held"] = stats.get("held", 0) + st.held   # both kinds of hold
            if stats["first_request_at"] is not None:
                stats["span"] = stats["last_request_at"] - stats["first_request_at"]
            return self.send(200, json.dumps(stats))
        if path == "/_control/reset":
            with st.lock:
                st.reset()
                st.released.notify_all()
            return self.send(200, "{}")
        if path == "/_control/fault":
            with st.lock:
                st.faults.append({"kind": query.get("kind", "html500"), "count": int(query.get("count", "1")),
                                  "match": query.get("match", "")})
            return self.send(200, "{}")
        if path == "/_control/hold":
            with st.lock:
                st.holds.add(query.get("match", ""))
            return self.send(200, "{}")
        if path == "/_control/release":
            with st.lock:
                if "match" in query:
                    st.holds.discard(query["match"])
                else:
                    st.holds.clear()
                st.released.notify_all()
            return self.send(200, "{}")
        return self.message(404, "no such control")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixtures", default=os.path.join(here, "..", "..", "Fixtures", "discogs"))
    ap.add_argument("--index", help="barcode index JSON (default FIXTURES/search/index.json)")
    ap.add_argument("--limit", type=int, default=60, help="requests per window with credentials")
    ap.add_argument("--window", type=float, default=60.0, help="window length in seconds")
    ap.add_argument("--retry-after", action="store_true", help="send Retry-After with 429s")
    ap.add_argument("--token", action="append", default=[], help="an accepted personal token")
    ap.add_argument("--consumer", action="append", default=[], help="an accepted KEY:SECRET")
    ap.add_argument("--verifier", default="4Q7TZ2KM", help="the PIN the authorize page shows")
    ap.add_argument("--slow", type=float, default=3.0, help="seconds the 'slow' fault waits")
    lookups.add_arguments(ap)
    args = ap.parse_args()

    loopback.serve(Handler, State(args))


if __name__ == "__main__":
    main()
