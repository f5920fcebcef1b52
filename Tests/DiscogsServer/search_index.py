"""Release search by fields for the loopback Discogs server, the way Discogs' text index answers.

Discogs' `GET /database/search` takes field parameters (`artist`, `release_title`, `catno`,
`label`, `year`, `country`, `format`, `genre`, `style`, `title` for the combined
"Artist - Title", and `q` for free text over every field). Its index folds case and accents
and splits on anything that is not a letter or a digit; a field matches when every word of
the query is among the release's words for that field. So "cdp-7-46001-2" finds
"CDP 7 46001 2" (same words) and "CDP7460012" does not (one word against four).

The corpus (Fixtures/discogs/search/corpus.json, written by make_corpus.py) holds releases in
a compact source form; results and releases are built from it in Discogs' shapes (cf.
discogs-search-artist-title-2022.json for results, releases/10507194.json for a release).

server.py calls `is_field_search`, `answer` and `release`; nothing else here is its business.
"""
import json
import math
import os
import re
import threading
import unicodedata
import urllib.parse

FIELD_PARAMETERS = ("q", "title", "release_title", "artist", "anv", "label", "catno",
                    "year", "country", "format", "genre", "style")
DEFAULT_PER_PAGE = 50     # Discogs' default page size
MAX_PER_PAGE = 100        # and its largest
API = "https://api.discogs.com"
WEB = "https://www.discogs.com"

_lock = threading.Lock()
_corpora = {}             # corpus path -> Corpus, loaded once per server


def fold(text):
    """Case, accents and width folded: NFKD (fullwidth to ASCII, accents split off), marks
    dropped, casefolded. "Motörhead" -> "motorhead", "ＣＤＰ" -> "cdp"."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def words(text):
    """The index's words: folded, split on every character that is not a letter or a digit."""
    out, current = [], []
    for c in fold(text):
        if c.isalnum():
            current.append(c)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


def is_field_search(query):
    """True for a search by fields rather than by barcode (the barcode search is server.py's)."""
    return "barcode" not in query and any(query.get(p, "").strip() for p in FIELD_PARAMETERS)


class Release:
    """One corpus release, with its words per field and its search result."""

    def __init__(self, source):
        self.source = source
        self.id = source["id"]
        artists = source["artists"]
        credit = ""
        for i, a in enumerate(artists):
            credit += (a["anv"] + "*") if a.get("anv") else a["name"]
            if i < len(artists) - 1:
                join = a.get("join", "&").strip()
                credit += ", " if join in ("", ",") else " %s " % join
        self.credit = credit
        self.display_title = "%s - %s" % (credit, source["title"])
        labels = source.get("labels", [])
        flat_formats = []
        for f in source.get("formats", []):
            flat_formats += [f["name"]] + f.get("descriptions", [])
        self.flat_formats = flat_formats
        names = [a["name"] for a in artists] + [a["anv"] for a in artists if a.get("anv")]
        catnos = [l.get("catno", "") for l in labels]
        fields = {
            "artist": names,
            "anv": [a["anv"] for a in artists if a.get("anv")],
            "release_title": [source["title"]],
            "title": [self.display_title],
            "label": [l["name"] for l in labels],
            "catno": catnos,
            "year": [str(source.get("year") or "")],
            "country": [source.get("country", "")],
            "format": flat_formats,
            "genre": source.get("genres", []),
            "style": source.get("styles", []),
        }
        self.words = {k: set(w for text in v for w in words(text)) for k, v in fields.items()}
        self.words["q"] = set().union(*self.words.values())

    def matches(self, wanted):
        """wanted: parameter -> list of words; every word of every field must be among the
        release's words for that field."""
        return all(set(ws) <= self.words[p] for p, ws in wanted.items())

    def slug(self):
        """As Discogs writes it in a page address: the credit without its markers, then the
        title, words as written joined by "-" ("/Arthus-Catuaba-EP/release/13565620")."""
        credit = re.sub(r" \(\d+\)", "", self.credit).replace("*", "")
        return "-".join(re.findall(r"[^\W_]+", "%s %s" % (credit, self.source["title"]))) or "release"

    def result(self):
        """The search hit, in the modern shape (discogs-search-artist-title-2022.json)."""
        s = self.source
        labels = s.get("labels", [])
        catno = labels[0].get("catno", "none") if labels else "none"
        thumb = "https://i.discogs.com/crates-fixture/rs:fit/g:sm/q:40/h:150/w:150/R-%d.jpeg" % self.id
        out = {
            "country": s.get("country", ""),
            "year": str(s["year"]) if s.get("year") else None,
            "format": self.flat_formats,
            "label": [l["name"] for l in labels] + s.get("companies", []),
            "type": "release",
            "genre": s.get("genres", []),
            "style": s.get("styles", []),
            "id": self.id,
            "barcode": s.get("barcode", []),
            "user_data": {"in_wantlist": False, "in_collection": False},
            "master_id": s.get("master_id", 0),
            "master_url": ("%s/masters/%d" % (API, s["master_id"])) if s.get("master_id") else None,
            "uri": "/%s/release/%d" % (self.slug(), self.id),
            "catno": catno,
            "title": self.display_title,
            "thumb": thumb,
            "cover_image": thumb.replace("q:40/h:150/w:150", "q:90/h:600/w:600"),
            "resource_url": "%s/releases/%d" % (API, self.id),
            "community": {"want": s.get("want", 0), "have": s.get("have", 0)},
            "format_quantity": sum(int(f.get("qty", "1")) for f in s.get("formats", [])),
            "formats": s.get("formats", []),
        }
        if out["year"] is None:
            del out["year"]
        return out

    def release(self):
        """`GET /releases/{id}`, in the modern shape (cf. releases/10507194.json)."""
        s = self.source
        tracks = s.get("tracks") or ["Side A", "Side B"]
        return {
            "id": self.id,
            "status": "Accepted",
            "year": s.get("year") or 0,
            "resource_url": "%s/releases/%d" % (API, self.id),
            "uri": "%s/release/%d-%s" % (WEB, self.id, self.slug()),
            "artists": [{"name": a["name"], "anv": a.get("anv", ""), "join": a.get("join", "") if i < len(s["artists"]) - 1 else "",
                         "role": "", "tracks": "", "id": 100000 + i,
                         "resource_url": "%s/artists/%d" % (API, 100000 + i)} for i, a in enumerate(s["artists"])],
            "artists_sort": self.credit.replace("*", ""),
            "labels": [{"name": l["name"], "catno": l.get("catno", "none"), "entity_type": "1",
                        "entity_type_name": "Label", "id": 200000 + i,
                        "resource_url": "%s/labels/%d" % (API, 200000 + i)} for i, l in enumerate(s.get("labels", []))],
            "series": [],
            "companies": [],
            "formats": s.get("formats", []),
            "data_quality": "Correct",
            "format_quantity": sum(int(f.get("qty", "1")) for f in s.get("formats", [])),
            "title": s["title"],
            "country": s.get("country", ""),
            "released": str(s.get("year") or ""),
            "notes": "Built by the loopback server from Fixtures/discogs/search/corpus.json.",
            "identifiers": [{"type": "Barcode", "value": b} for b in s.get("barcode", [])],
            "genres": s.get("genres", []),
            "styles": s.get("styles", []),
            "tracklist": [{"position": _position(i, len(tracks)), "type_": "track", "title": t, "duration": ""}
                          for i, t in enumerate(tracks)],
            "thumb": "https://i.discogs.com/crates-fixture/rs:fit/g:sm/q:40/h:150/w:150/R-%d.jpeg" % self.id,
        }


class Corpus:
    def __init__(self, path):
        data = {"releases": []}
        if path:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        self.releases = [Release(r) for r in data["releases"]]
        self.by_id = {r.id: r for r in self.releases}

    def search(self, query, base):
        """(status, body) for a field search: Discogs' page of results or its error."""
        wanted = {}
        for p in FIELD_PARAMETERS:
            ws = words(query.get(p, ""))
            if ws:
                wanted[p] = ws
        found = [r for r in self.releases if r.matches(wanted)]
        per_page = _int(query.get("per_page"), DEFAULT_PER_PAGE)
        per_page = min(max(per_page, 1), MAX_PER_PAGE)
        page = _int(query.get("page"), 1)
        pages = max(1, math.ceil(len(found) / per_page))
        if page < 1 or page > pages:
            return 404, json.dumps({"message": "Page %d is outside of valid range [1, %d]." % (page, pages)})
        hits = found[(page - 1) * per_page: page * per_page]
        urls = {}
        link = lambda n: base + "/database/search?" + urllib.parse.urlencode(dict(query, page=str(n), per_page=str(per_page)))
        if page > 1:
            urls["first"] = link(1)
            urls["prev"] = link(page - 1)
        if page < pages:
            urls["next"] = link(page + 1)
            urls["last"] = link(pages)
        body = {"pagination": {"per_page": per_page, "items": len(found), "page": page, "urls": urls, "pages": pages},
                "results": [r.result() for r in hits]}
        return 200, json.dumps(body, ensure_ascii=False)


def _position(index, count):
    """A1, A2… for the first half of the tracks, B1, B2… for the rest (one LP's two sides)."""
    half = (count + 1) // 2
    return "A%d" % (index + 1) if index < half else "B%d" % (index - half + 1)


def _int(text, default):
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


def corpus(state):
    """The corpus of this server (FIXTURES/search/corpus.json), loaded on first use; an empty
    one when the fixtures have none."""
    path = os.path.join(state.args.fixtures, "search", "corpus.json")
    with _lock:
        if path not in _corpora:
            _corpora[path] = Corpus(path if os.path.exists(path) else None)
        return _corpora[path]


def answer(state, query, host):
    """(status, body) for `GET /database/search` by fields; counts it in
    stats["field_searches"] (the parameters sent, `type`, `page` and `per_page` included)."""
    with state.lock:
        state.stats.setdefault("field_searches", []).append(dict(query))
    if query.get("type") != "release":
        return 400, json.dumps({"message": "crates always searches type=release"})
    return corpus(state).search(query, "http://" + host if host else API)


def release(state, rid):
    """The body of `GET /releases/{rid}` for a corpus release, or None."""
    try:
        r = corpus(state).by_id.get(int(rid))
    except ValueError:
        return None
    return json.dumps(r.release(), ensure_ascii=False) if r else None
