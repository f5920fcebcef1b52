"""Lookup-throughput support for the loopback Discogs server (server.py): what the lookup
benchmark (scripts/bench-lookup.sh) and the lookup worker's tests need.

- Generated releases (--generate): a barcode search for any valid GTIN (8, 12, 13 or 14
  digits with a correct GS1 check digit) not in the barcode index answers one release,
  made up deterministically from the GTIN (its 12- and 13-digit forms give the same one),
  with an "Artist - Title" that splits cleanly; GET /releases/{id} answers it in full. So
  any list of GTINs, one nobody here wrote, is found at its first form.
- Index entries {"corpus": ID}: the search answers that corpus release's result (e.g. one
  whose title has several " - "); {"corpus": [ID, ID…]}: several pressings share the
  barcode, each served in full by GET /releases/{id}.
- A fault mix (--fault-mix html500=0.2,truncated=0.1,stall=0.05 --seed N --stall 20): each
  search or release request, once counted in the rate-limit window, draws its fate: an HTML 500, its real
  answer cut short (a body that does not parse), or its real answer after --stall seconds.
- Fault kinds on demand (/_control/fault): "reset" (the connection is closed without an
  answer), "stall" (the real answer, --stall seconds late), "hold" (the real answer, once the
  test says /_control/release).
- Counted holds: /_control/hold?match=TEXT&count=N holds the next N requests whose path
  contains TEXT, after the window admitted them, until /_control/release?match=TEXT (every
  hold when TEXT is empty). Without count, server.py's hold applies (every matching request,
  before the window, until released). Held requests count in
  the window when they arrive. stats: "held" (held now), "in_flight" and "max_in_flight"
  (requests being answered at once), "order" and "order_at" (the API requests' paths as
  they arrived, and when: time.monotonic()),
  "mixed_faults" (what the mix drew, by kind).
"""
import json
import random
import threading
import time

MIX_KINDS = ("html500", "truncated", "stall", "json500", "reset")
GENRES = ["Rock", "Electronic", "Jazz", "Pop", "Hip Hop", "Classical", "Funk / Soul", "Folk, World, & Country"]
COUNTRIES = ["UK", "US", "Germany", "France", "Japan", "Netherlands", "Sweden", "Italy"]
FORMATS = [("CD", ["Album"]), ("Vinyl", ["LP", "Album"]), ("CD", ["Single"]), ("Vinyl", ["12\"", "33 ⅓ RPM"])]
API = "https://api.discogs.com"
WEB = "https://www.discogs.com"


def add_arguments(ap):
    ap.add_argument("--generate", action="store_true",
                    help="answer any valid GTIN not in the index with a generated release")
    ap.add_argument("--fault-mix", default="",
                    help="KIND=FRACTION,… for every API request (html500, truncated, stall, json500, reset)")
    ap.add_argument("--seed", type=int, default=13, help="seed of the fault mix")
    ap.add_argument("--stall", type=float, default=20.0, help="seconds the 'stall' fault waits")


def setup(state):
    mix = []
    for part in filter(None, (p.strip() for p in state.args.fault_mix.split(","))):
        kind, _, fraction = part.partition("=")
        if kind not in MIX_KINDS:
            raise SystemExit("unknown fault kind in --fault-mix: " + kind)
        mix.append((kind, float(fraction)))
    state.mix = mix
    state.rng = random.Random(state.args.seed)
    state.generated = {}       # generated release id -> GTIN-14
    state.counted_holds = []           # {"match", "count", "event"}
    state.in_flight = 0


def reset(state):
    """Called from State.reset (under no lock): counters and holds back to zero; the mix
    starts again from its seed."""
    state.stats.update({"held": 0, "in_flight": 0, "max_in_flight": 0, "mixed_faults": {}, "order": [], "order_at": []})
    if hasattr(state, "counted_holds"):
        for hold in state.counted_holds:
            hold["event"].set()
        state.counted_holds = []
        state.rng = random.Random(state.args.seed)


def begin(handler):
    st = handler.server.state
    with st.lock:
        st.stats["order"].append(handler.path)   # API requests in the order they arrived…
        st.stats["order_at"].append(time.monotonic())   # …and when
        st.in_flight += 1
        st.stats["in_flight"] = st.in_flight
        st.stats["max_in_flight"] = max(st.stats["max_in_flight"], st.in_flight)


def end(handler):
    st = handler.server.state
    with st.lock:
        st.in_flight -= 1
        st.stats["in_flight"] = st.in_flight


def control(handler, path, query):
    """The /_control/hold and /_control/release endpoints; False for any other path."""
    st = handler.server.state
    if path == "/_control/hold" and "count" in query:
        with st.lock:
            st.counted_holds.append({"match": query.get("match", ""), "count": int(query.get("count", "1")),
                             "event": threading.Event()})
        handler.send(200, "{}")
        return True
    if path == "/_control/release":
        match = query.get("match", "")
        with st.lock:
            for hold in st.counted_holds:
                if match in hold["match"] or not match:
                    hold["event"].set()
        return False   # server.py's holds (without a count) are released too
    return False


def hold(handler, full_path, fault=None):
    """Holds this request while a hold matches it (or its fault is "hold")."""
    st = handler.server.state
    event = None
    with st.lock:
        for h in st.counted_holds:
            if h["count"] > 0 and h["match"] in full_path and not h["event"].is_set():
                h["count"] -= 1
                event = h["event"]
                break
        if event is None and fault == "hold":
            event = threading.Event()
            st.counted_holds.append({"match": full_path, "count": 0, "event": event})
        if event is None:
            return
        st.stats["held"] += 1
    try:
        event.wait(300)
    finally:
        with st.lock:
            st.stats["held"] -= 1


def mixed_fault(state, path):
    """The fate of one lookup request (a search or a release) under --fault-mix: a kind, or
    None. Signing in and the collection endpoints are left alone."""
    if not state.mix or not (path.startswith("/database/search") or path.startswith("/releases/")):
        return None
    with state.lock:
        r = state.rng.random()
        for kind, fraction in state.mix:
            if r < fraction:
                state.stats["mixed_faults"][kind] = state.stats["mixed_faults"].get(kind, 0) + 1
                return kind
            r -= fraction
    return None


def apply_in_place(handler, kind):
    """Faults that still give the real answer, or none: True when the request goes on to be
    answered normally (perhaps late, perhaps cut short), False when it is done."""
    st = handler.server.state
    if kind == "stall":
        time.sleep(st.args.stall)
        return True
    if kind == "truncated-real":
        handler.truncate_body = True
        return True
    if kind == "reset":
        handler.close_connection = True
        try:
            import socket
            handler.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        return False
    return True


def query_token(path):
    """A personal token sent as ?token= (Discogs takes it so too; python3-discogs-client sends
    it so), as the Authorization header it stands for; "" when there is none."""
    import urllib.parse
    token = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query)).get("token")
    return "Discogs token=" + token if token else ""


# --- generated releases ----------------------------------------------------------------

def _valid_gtin(digits):
    if not digits.isdigit() or len(digits) not in (8, 12, 13, 14):
        return False
    total = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(reversed(digits[:-1])))
    return (10 - total % 10) % 10 == int(digits[-1])


def _release_id(gtin14):
    return 100_000_000 + int(gtin14) % 899_999_989


def _source(gtin14, rid):
    n = int(gtin14)
    name, descriptions = FORMATS[n % len(FORMATS)]
    return {
        "id": rid,
        "artist": "Artist %04d" % (n % 9973),
        "title": "Title %s" % gtin14.lstrip("0"),
        "genre": GENRES[n % len(GENRES)],
        "style": "Style %d" % (n % 17),
        "year": 1960 + n % 60,
        "country": COUNTRIES[n % len(COUNTRIES)],
        "label": "Label %03d" % (n % 211),
        "catno": "CAT-%06d" % (n % 1000000),
        "formats": [{"name": name, "qty": "1", "descriptions": descriptions}],
        "barcode": gtin14.lstrip("0") if len(gtin14.lstrip("0")) >= 12 else gtin14,
    }


def _result(s):
    flat = [s["formats"][0]["name"]] + s["formats"][0]["descriptions"]
    thumb = "https://i.discogs.com/crates-generated/R-%d.jpeg" % s["id"]
    slug = "%s-%s" % (s["artist"].replace(" ", "-"), s["title"].replace(" ", "-"))
    return {
        "country": s["country"], "year": str(s["year"]), "format": flat, "label": [s["label"]],
        "type": "release", "genre": [s["genre"]], "style": [s["style"]], "id": s["id"],
        "barcode": [s["barcode"]], "user_data": {"in_wantlist": False, "in_collection": False},
        "master_id": 0, "master_url": None, "uri": "/%s/release/%d" % (slug, s["id"]),
        "catno": s["catno"], "title": "%s - %s" % (s["artist"], s["title"]), "thumb": thumb,
        "cover_image": thumb, "resource_url": "%s/releases/%d" % (API, s["id"]),
        "community": {"want": 0, "have": 1}, "format_quantity": 1, "formats": s["formats"],
    }


def _release(s):
    slug = "%s-%s" % (s["artist"].replace(" ", "-"), s["title"].replace(" ", "-"))
    return {
        "id": s["id"], "status": "Accepted", "year": s["year"],
        "resource_url": "%s/releases/%d" % (API, s["id"]), "uri": "%s/release/%d-%s" % (WEB, s["id"], slug),
        "artists": [{"name": s["artist"], "anv": "", "join": "", "role": "", "tracks": "", "id": 300000,
                     "resource_url": "%s/artists/300000" % API}],
        "artists_sort": s["artist"],
        "labels": [{"name": s["label"], "catno": s["catno"], "entity_type": "1", "entity_type_name": "Label",
                    "id": 400000, "resource_url": "%s/labels/400000" % API}],
        "series": [], "companies": [], "formats": s["formats"], "data_quality": "Correct",
        "format_quantity": 1, "title": s["title"], "country": s["country"], "released": str(s["year"]),
        "notes": "Generated by the loopback server (--generate) from its barcode.",
        "identifiers": [{"type": "Barcode", "value": s["barcode"]}],
        "genres": [s["genre"]], "styles": [s["style"]],
        "tracklist": [{"position": "%d" % (i + 1), "type_": "track", "title": "Track %d" % (i + 1), "duration": "3:%02d" % (10 + i)}
                      for i in range(4)],
        "thumb": "https://i.discogs.com/crates-generated/R-%d.jpeg" % s["id"],
    }


def search_page(state, barcode, entry):
    """The body of a barcode search this module answers, or None: an index entry naming a
    corpus release, or (with --generate) a GTIN not in the index."""
    if entry and "corpus" in entry:
        import search_index
        ids = entry["corpus"] if isinstance(entry["corpus"], list) else [entry["corpus"]]
        releases = [search_index.corpus(state).by_id.get(int(rid)) for rid in ids]
        results = [release.result() for release in releases if release]
        return json.dumps({"pagination": {"per_page": 100, "items": len(results), "page": 1, "urls": {}, "pages": 1},
                           "results": results}, ensure_ascii=False)
    if entry or not state.args.generate or not _valid_gtin(barcode):
        return None
    gtin14 = barcode.rjust(14, "0")
    rid = _release_id(gtin14)
    with state.lock:
        state.generated[rid] = gtin14
    return json.dumps({"pagination": {"per_page": 100, "items": 1, "page": 1, "urls": {}, "pages": 1},
                       "results": [_result(_source(gtin14, rid))]})


def release_body(state, rid):
    """GET /releases/{rid} for a generated release, or None."""
    try:
        rid = int(rid)
    except ValueError:
        return None
    with state.lock:
        gtin14 = state.generated.get(rid)
    return json.dumps(_release(_source(gtin14, rid))) if gtin14 else None
