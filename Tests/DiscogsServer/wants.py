"""The Discogs "User Wantlist" endpoints for the loopback server (server.py).

An in-memory wantlist per user. The owner (a personal token or an OAuth access token whose
username is identity.json's) sees the notes; anyone else sees the list without them, and
may not change it (403), as Discogs documents.

Endpoints (under /users/{username}/wants):
  GET    ?page&per_page        one page (per_page <= 100, default 50), oldest first:
                               {"pagination", "wants": [{"id", "resource_url", "rating",
                               "date_added", "basic_information", "notes" (owner only)}]}
  PUT    /{release_id}?notes&rating   adds (or, already there, sets): 201 with the want
  POST   /{release_id}?notes&rating   edits notes and/or rating: 200 with the want
  DELETE /{release_id}         204; 404 when it is not on the wantlist
A release Discogs does not have (not a fixture, or made "gone") answers 404 to PUT.

Control endpoints (never rate-limited, never counted as API requests):
  POST /_control/wants/seed    JSON {"username"?, "replace": true, "wants": [{"release_id",
                               "notes"?, "rating"?, "date_added"?, "basic_information"?}]}
  GET  /_control/wants/dump[?username=U]   {"wants": [...]} with notes
  GET  /_control/wants/stats   {"requests": {kind: n}, "statuses": {code: n}}
  GET  /_control/wants/reset
  GET  /_control/wants/change?release=R[&notes=N][&rating=R][&remove=1][&add=1]
                               the owner changes the wantlist on Discogs' site
  GET  /_control/wants/gone?release=R      Discogs no longer has release R (PUT answers 404)
  GET  /_control/wants/listing?quirk=Q&page=N&count=C[&release=R]
                               empty: page N comes back with no wants; shrink: page N says
                               the list has N pages; drop: after page N, release R is
                               removed from the wantlist (a change mid-listing)
Kinds: list, add, edit, remove.
"""
import datetime
import json
import threading
import urllib.parse

import collection   # release data (basic_information) and Discogs' times

VIEW_PRIVATE = "You are not allowed to view this resource. Please authenticate as the owner to view this content."
NO_PERMISSION = "You don't have permission to access this resource."


class Wantlists:
    def __init__(self, owner):
        self.owner = owner
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.users = {}            # lower name -> {release_id: want}
        self.counts = {}
        self.statuses = {}
        self.quirks = []
        self.gone = set()
        self.clock = 0

    def wants(self, name):
        return self.users.setdefault(name.lower(), {})


def state(st):
    with st.lock:
        w = getattr(st, "wantlists", None)
        if w is None:
            identity = json.loads(st.read("identity.json"))
            w = st.wantlists = Wantlists(identity["username"])
        return w


def info(st, rid):
    """basic_information of a release Discogs has; None when it has none."""
    c = collection.state(st)
    w = state(st)
    if rid in w.gone:
        return None
    known = collection.basic_information(st, c, rid)
    if known is not None:
        return known
    return None


def item(want, owner_view):
    out = {"id": want["release_id"], "rating": want["rating"], "date_added": want["date_added"],
           "resource_url": "https://api.discogs.com/users/wants/%d" % want["release_id"],
           "basic_information": want["basic_information"]}
    if owner_view:
        out["notes"] = want["notes"]
    return out


def ordered(wants):
    return sorted(wants.values(), key=lambda x: (collection.parse_time(x["date_added"]), x["release_id"]))


def now_text():
    return collection.discogs_time(datetime.datetime.now(datetime.timezone.utc))


def handles(path):
    parts = path.split("/")
    return len(parts) >= 4 and parts[1] == "users" and parts[3] == "wants"


def handle(handler, method, path, query, raw_body, who, rl):
    st = handler.server.state
    w = state(st)
    parts = path.split("/")
    username = urllib.parse.unquote(parts[2])
    rest = parts[4:]
    kind = None
    if not rest and method == "GET":
        kind = "list"
    elif len(rest) == 1 and rest[0].isdigit():
        kind = {"PUT": "add", "POST": "edit", "DELETE": "remove"}.get(method)
    if kind is None:
        return handler.message(404, collection.NOT_FOUND, rl)
    with w.lock:
        w.counts[kind] = w.counts.get(kind, 0) + 1
    status, body = answer(handler, st, w, kind, username, rest, query, raw_body, who)
    with w.lock:
        w.statuses[str(status)] = w.statuses.get(str(status), 0) + 1
    if status == 204:
        handler.send_response(204)
        for k, v in rl.items():
            handler.send_header(k, v)
        handler.end_headers()
        return
    handler.send(status, json.dumps(body), headers=rl)


def params(handler, query, raw_body):
    out = dict(query)
    body = collection.body_params(handler, raw_body)
    if body:
        out.update({k: v for k, v in body.items() if k in ("notes", "rating")})
    return out


def answer(handler, st, w, kind, username, rest, query, raw_body, who):
    owner_view = who in ("token", "oauth") and username.lower() == w.owner.lower()
    if kind != "list" and not owner_view:
        return 403, {"message": NO_PERMISSION if who else VIEW_PRIVATE}
    if kind == "list":
        if not who:
            return 403, {"message": VIEW_PRIVATE}
        with w.lock:
            wants = ordered(w.wants(username))
            try:
                page = int(query.get("page", "1"))
                per_page = max(1, min(int(query.get("per_page", "50")), 100))
            except ValueError:
                return 400, {"message": "page and per_page must be numbers."}
            items = len(wants)
            pages = max(1, (items + per_page - 1) // per_page)
            if page < 1 or page > pages:
                return 404, {"message": "Page %d is outside of valid range [1, %d]." % (page, pages)}
            chunk = wants[(page - 1) * per_page: page * per_page]
            body = {"pagination": {"page": page, "pages": pages, "per_page": per_page, "items": items, "urls": {}},
                    "wants": [item(x, owner_view) for x in chunk]}
            apply_quirks(w, username, body)
        return 200, body
    rid = int(rest[0])
    p = params(handler, query, raw_body)
    rating = None
    if "rating" in p and p["rating"] != "":
        try:
            rating = int(p["rating"])
        except (TypeError, ValueError):
            rating = -1
        if not 0 <= rating <= 5:
            return 422, {"message": "Rating must be an integer between 0 and 5."}
    if kind == "add":
        basic = info(st, rid)
        if basic is None:
            return 404, {"message": "Release not found."}
        with w.lock:
            wants = w.wants(username)
            want = wants.get(rid)
            if want is None:
                want = wants[rid] = {"release_id": rid, "notes": "", "rating": 0, "date_added": now_text(),
                                     "basic_information": basic}
            if "notes" in p:
                want["notes"] = p["notes"]
            if rating is not None:
                want["rating"] = rating
            return 201, item(want, True)
    with w.lock:
        wants = w.wants(username)
        want = wants.get(rid)
        if want is None:
            return 404, {"message": "Release not in wantlist."}
        if kind == "remove":
            del wants[rid]
            return 204, None
        if "notes" in p:
            want["notes"] = p["notes"]
        if rating is not None:
            want["rating"] = rating
        return 200, item(want, True)


def apply_quirks(w, username, body):
    """Called with w.lock held."""
    pagination = body["pagination"]
    page = pagination["page"]
    for q in w.quirks:
        if q["count"] <= 0 or q["page"] != page:
            continue
        q["count"] -= 1
        if q["quirk"] == "empty":
            body["wants"] = []
        elif q["quirk"] == "shrink":
            pagination["pages"] = page
            pagination["items"] = min(pagination["items"], page * pagination["per_page"])
        elif q["quirk"] == "drop":
            w.wants(username).pop(q["release"], None)


def control(handler, path, query, raw_body):
    st = handler.server.state
    w = state(st)
    what = path[len("/_control/wants/"):]
    if what == "seed":
        try:
            spec = json.loads(raw_body.decode("utf-8") or "{}")
            seed(st, w, spec)
        except (ValueError, KeyError, TypeError) as e:
            return handler.send(400, json.dumps({"message": "bad seed: %s" % e}))
        return handler.send(200, "{}")
    if what == "dump":
        with w.lock:
            wants = [dict(x) for x in ordered(w.wants(query.get("username", w.owner)))]
        return handler.send(200, json.dumps({"wants": wants}))
    if what == "stats":
        with w.lock:
            out = {"requests": dict(w.counts), "statuses": dict(w.statuses)}
        return handler.send(200, json.dumps(out))
    if what == "reset":
        with w.lock:
            w.reset()
        return handler.send(200, "{}")
    if what == "gone":
        with w.lock:
            w.gone.add(int(query.get("release", "0")))
        return handler.send(200, "{}")
    if what == "listing":
        quirk = query.get("quirk", "")
        if quirk not in ("empty", "shrink", "drop"):
            return handler.send(400, json.dumps({"message": "quirk is empty, shrink or drop"}))
        with w.lock:
            w.quirks.append({"quirk": quirk, "page": int(query.get("page", "1")),
                             "count": int(query.get("count", "1")), "release": int(query.get("release", "0"))})
        return handler.send(200, "{}")
    if what == "change":
        rid = int(query.get("release", "0"))
        basic = info(st, rid) if query.get("add") == "1" else None
        with w.lock:
            wants = w.wants(query.get("username", w.owner))
            if query.get("add") == "1":
                wants[rid] = {"release_id": rid, "notes": "", "rating": 0, "date_added": now_text(),
                              "basic_information": basic or placeholder(rid)}
            want = wants.get(rid)
            if want is None:
                return handler.send(404, json.dumps({"message": "not on the wantlist"}))
            if query.get("remove") == "1":
                del wants[rid]
            else:
                if "notes" in query:
                    want["notes"] = query["notes"]
                if "rating" in query:
                    want["rating"] = int(query["rating"])
        return handler.send(200, "{}")
    return handler.send(404, json.dumps({"message": "no such wants control"}))


def placeholder(rid):
    return {"id": rid, "title": "Release %d" % rid, "year": 0,
            "artists": [{"name": "Artist %d" % rid, "anv": "", "join": ""}],
            "labels": [], "formats": [], "genres": [], "styles": []}


def seed(st, w, spec):
    infos = {}
    for x in spec.get("wants", []):
        rid = int(x["release_id"])
        infos[rid] = x.get("basic_information") or info(st, rid) or placeholder(rid)
    with w.lock:
        name = spec.get("username", w.owner)
        if spec.get("replace", True):
            w.users.pop(name.lower(), None)
        wants = w.wants(name)
        for x in spec.get("wants", []):
            rid = int(x["release_id"])
            date_added = x.get("date_added")
            if date_added is None:
                w.clock += 1
                date_added = collection.discogs_time(collection.SEED_EPOCH + datetime.timedelta(minutes=w.clock))
            wants[rid] = {"release_id": rid, "notes": x.get("notes", ""), "rating": int(x.get("rating", 0)),
                          "date_added": date_added, "basic_information": infos[rid]}
