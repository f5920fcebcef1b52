"""The Discogs "User Collection" endpoints for the loopback server (server.py).

An in-memory collection per user, with Discogs' owner checks: the signed-in user (a personal
token or an OAuth access token; the username is identity.json's, as /oauth/identity says)
owns the collection of that name. Anyone else, and anonymous requests, get 403 with Discogs'
messages, except that a collection seeded as public shows folder 0, the releases of a
release and the public fields to everyone (as Discogs documents).

Endpoints (under /users/{username}/collection, the name percent-decoded, case-insensitive):
  GET    /folders                                            folders: 0 All, 1 Uncategorized, the user's
  GET    /folders/{f}                                        one folder
  GET    /folders/{f}/releases?page&per_page&sort&sort_order one page (per_page <= 100, default 50)
  GET    /releases/{release_id}?page&per_page                the instances of a release
  POST   /folders/{f}/releases/{release_id}                  add: 201, instance ids from 5,000,000,000
  POST   /folders/{f}/releases/{r}/instances/{i}             rating / folder_id (JSON or form body): 204
  DELETE /folders/{f}/releases/{r}/instances/{i}             204
  GET    /fields                                             the custom fields
  POST   /folders/{f}/releases/{r}/instances/{i}/fields/{id}?value=V   204; a dropdown value
                                                             not among the options: 422; an
                                                             empty value: 422 "Missing value."
                                                             (no call empties a field)

Sort keys (Discogs'): label artist title catno format rating added year; sort_order asc|desc.
"added" breaks ties by instance id, so it is stable. Without a sort, and between equal keys
of the other sorts, the order is an arbitrary one that changes whenever the collection does,
as a database's unordered rows do.

Control endpoints (never rate-limited, never counted as API requests):
  POST /_control/collection/seed     JSON: {"username", "public": false, "replace": true,
                                      "folders": [{"id", "name"}], "fields": [...] (default:
                                      Discogs' three), "releases": [basic_information...],
                                      "instances": [{"release_id", "instance_id"?, "folder_id"? (1),
                                      "rating"? (0), "date_added"?, "notes"? [{"field_id","value"}],
                                      "basic_information"?}]}  -> {"username", "instance_ids"}
  GET  /_control/collection/dump?username=U    the collection as JSON
  GET  /_control/collection/stats              {"requests": {kind: n}, "statuses": {code: n}}
  GET  /_control/collection/reset              forgets every collection, release and counter
  GET  /_control/collection/hold?kind=K&count=N   the next N requests of kind K are carried out,
                                      then their answers held until /_control/collection/release
  GET  /_control/collection/change?instance=I[&rating=R][&field_F=V][&remove=1]
                                      the owner changes a copy on Discogs' site: its rating,
                                      a field's value (empty: cleared), or removes it
  GET  /_control/collection/held               {"held": n}: answers being held now
  GET  /_control/collection/release            sends the held answers
  GET  /_control/collection/listing?quirk=Q&page=N&count=C[&instance=I]
                                      the next C answers for page N of a folder's releases go
                                      wrong, as a listing can while the collection changes:
                                      empty   the page holds no releases (pagination as it is)
                                      shrink  the page says the folder has N pages and at most
                                              N*per_page copies (a page count that shrank)
                                      drop    after the page is answered, instance I is removed
                                              (a copy removed on Discogs mid-listing)
Kinds: folders, folder, folder_releases, release_instances, add, edit, delete, fields, set_field.
"""
import datetime
import hashlib
import json
import os
import threading
import urllib.parse

VIEW_PRIVATE = "You are not allowed to view this resource. Please authenticate as the owner to view this content."
NO_PERMISSION = "You don't have permission to access this resource."
USER_MISSING = "User does not exist or may have been deleted."
NOT_FOUND = "The requested resource was not found."

GRADES = ["Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)",
          "Good Plus (G+)", "Good (G)", "Fair (F)", "Poor (P)"]

# The fields every account starts with, as api.discogs.com answered in 2022 (recorded in
# peacefixation/go-discogs' collection_test.go): the sleeve offers Generic and No Cover, and
# no "Not Graded".
DEFAULT_FIELDS = [
    {"id": 1, "name": "Media Condition", "type": "dropdown", "position": 1, "public": False,
     "options": list(GRADES)},
    {"id": 2, "name": "Sleeve Condition", "type": "dropdown", "position": 2, "public": False,
     "options": ["Generic", "No Cover"] + GRADES},
    {"id": 3, "name": "Notes", "type": "textarea", "position": 3, "public": False, "lines": 3},
]

FIRST_INSTANCE_ID = 5_000_000_000    # beyond 2^32: ids must survive 64-bit round trips
FIRST_FOLDER_ID = 1_000_000          # user folders
PACIFIC = datetime.timezone(datetime.timedelta(hours=-7))   # Discogs writes -07:00 / -08:00
SEED_EPOCH = datetime.datetime(2015, 1, 1, tzinfo=datetime.timezone.utc)
SORT_KEYS = ("label", "artist", "title", "catno", "format", "rating", "added", "year")
HOLD_LIMIT = 120.0                   # seconds a held answer waits at most


class User:
    def __init__(self, name, public=False):
        self.name = name
        self.public = public
        self.folders = {1: "Uncategorized"}      # 0 "All" is implicit
        self.fields = json.loads(json.dumps(DEFAULT_FIELDS))
        self.instances = {}                      # instance_id -> dict
        self.generation = 0                      # bumped on every change


class Collections:
    def __init__(self, owner):
        self.owner = owner
        self.lock = threading.Lock()
        self.hold_cond = threading.Condition(self.lock)
        self.held = 0                            # answers waiting now
        self.release_epoch = 0                   # bumped to let held answers go
        self.reset()

    def reset(self):
        self.users = {}
        self.catalogue = {}                      # release id -> basic_information
        self.next_instance = FIRST_INSTANCE_ID
        self.next_folder = FIRST_FOLDER_ID
        self.seed_clock = 0
        self.counts = {}
        self.statuses = {}
        self.holds = {}                          # kind -> answers still to hold
        self.quirks = []                         # listing quirks: {"quirk", "page", "count", "instance"}

    def user(self, name, create=False):
        key = name.lower()
        u = self.users.get(key)
        if u is None and (create or key == self.owner.lower()):
            u = self.users[key] = User(self.owner if key == self.owner.lower() else name)
        return u


def state(st):
    """The server's collections, made on first use (server.py knows nothing of them)."""
    with st.lock:
        c = getattr(st, "collections", None)
        if c is None:
            identity = json.loads(st.read("identity.json"))
            c = st.collections = Collections(identity["username"])
        return c


# --- release data -------------------------------------------------------------------------
def basic_information(st, c, release_id):
    """The release's basic_information: seeded, else derived from Fixtures/discogs/releases."""
    with c.lock:
        info = c.catalogue.get(release_id)
    if info is not None:
        return info
    path = os.path.join(st.args.fixtures, "releases", "%d.json" % release_id)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        full = json.load(f)
    info = {"id": release_id, "title": full.get("title", ""), "year": full.get("year", 0),
            "resource_url": "https://api.discogs.com/releases/%d" % release_id,
            "thumb": full.get("thumb", ""), "cover_image": "",
            "formats": full.get("formats", []), "labels": full.get("labels", []),
            "artists": full.get("artists", []), "genres": full.get("genres", []),
            "styles": full.get("styles", [])}
    with c.lock:
        c.catalogue[release_id] = info
    return info


def discogs_time(moment):
    return moment.astimezone(PACIFIC).isoformat(timespec="seconds")


def parse_time(text):
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return SEED_EPOCH


# --- listing ------------------------------------------------------------------------------
def sort_value(c, inst, key):
    info = c.catalogue.get(inst["release_id"], {})
    if key == "added":
        return (parse_time(inst["date_added"]),)
    if key == "rating":
        return (inst["rating"],)
    if key == "year":
        return (info.get("year") or 0,)
    if key == "artist":
        return (" ".join(a.get("name", "") for a in info.get("artists", [])).lower(),)
    if key == "title":
        return (info.get("title", "").lower(),)
    if key == "label":
        return (" ".join(l.get("name", "") for l in info.get("labels", [])).lower(),)
    if key == "catno":
        return (" ".join(l.get("catno", "") for l in info.get("labels", [])).lower(),)
    if key == "format":
        return (" ".join(f.get("name", "") for f in info.get("formats", [])).lower(),)
    return ()


def arbitrary(user, inst):
    """An order with no meaning that changes whenever the collection changes."""
    digest = hashlib.sha1(("%d:%d" % (user.generation, inst["instance_id"])).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def ordered(c, user, insts, sort, order):
    if sort == "added":
        keyed = sorted(insts, key=lambda i: sort_value(c, i, "added") + (i["instance_id"],))
    elif sort in SORT_KEYS:
        keyed = sorted(insts, key=lambda i: sort_value(c, i, sort) + (arbitrary(user, i),))
    else:
        keyed = sorted(insts, key=lambda i: arbitrary(user, i))
    if order == "desc":
        keyed.reverse()
    return keyed


def item(c, user, inst, owner_view):
    notes = [{"field_id": int(fid), "value": v} for fid, v in sorted(inst["notes"].items(), key=lambda p: int(p[0]))]
    if not owner_view:
        public = {f["id"] for f in user.fields if f.get("public")}
        notes = [n for n in notes if n["field_id"] in public]
    out = {"id": inst["release_id"], "instance_id": inst["instance_id"], "date_added": inst["date_added"],
           "rating": inst["rating"], "basic_information": c.catalogue.get(inst["release_id"], {"id": inst["release_id"]}),
           "folder_id": inst["folder_id"]}
    if notes:
        out["notes"] = notes
    return out


def page_of(handler, c, user, insts, query, owner_view, base_url, default_per_page=50):
    try:
        page = int(query.get("page", "1"))
        per_page = int(query.get("per_page", str(default_per_page)))
    except ValueError:
        return 400, {"message": "page and per_page must be numbers."}
    per_page = max(1, min(per_page, 100))     # Discogs caps per_page at 100
    items = len(insts)
    pages = max(1, (items + per_page - 1) // per_page)
    if page < 1 or page > pages:
        return 404, {"message": "Page %d is outside of valid range [1, %d]." % (page, pages)}
    chunk = insts[(page - 1) * per_page: page * per_page]
    urls = {}
    keep = {k: v for k, v in query.items() if k not in ("page", "per_page")}

    def url(n):
        return base_url + "?" + urllib.parse.urlencode(dict(keep, page=n, per_page=per_page))
    if page < pages:
        urls["next"], urls["last"] = url(page + 1), url(pages)
    if page > 1:
        urls["first"], urls["prev"] = url(1), url(page - 1)
    return 200, {"pagination": {"page": page, "pages": pages, "per_page": per_page, "items": items, "urls": urls},
                 "releases": [item(c, user, i, owner_view) for i in chunk]}


# --- requests -----------------------------------------------------------------------------
def parse_route(path):
    """(username, rest segments) for /users/{u}/collection/..., else None."""
    parts = path.split("/")
    if len(parts) < 4 or parts[1] != "users" or parts[3] != "collection":
        return None
    return urllib.parse.unquote(parts[2]), parts[4:]


def kind_of(method, rest):
    n = len(rest)
    if rest[:1] == ["folders"]:
        if n == 1 and method == "GET":
            return "folders"
        if n == 2 and method == "GET":
            return "folder"
        if n == 3 and rest[2] == "releases" and method == "GET":
            return "folder_releases"
        if n == 4 and rest[2] == "releases" and method == "POST":
            return "add"
        if n == 6 and rest[2] == "releases" and rest[4] == "instances":
            return {"POST": "edit", "DELETE": "delete"}.get(method)
        if n == 8 and rest[2] == "releases" and rest[4] == "instances" and rest[6] == "fields" and method == "POST":
            return "set_field"
    if rest == ["fields"] and method == "GET":
        return "fields"
    if n == 2 and rest[0] == "releases" and method == "GET":
        return "release_instances"
    return None


def number(text):
    return int(text) if text.isdigit() else None


def body_params(handler, raw_body):
    ctype = handler.headers.get("Content-Type", "")
    text = raw_body.decode("utf-8", "replace")
    if ctype.startswith("application/json") and text.strip():
        try:
            value = json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
    return dict(urllib.parse.parse_qsl(text, keep_blank_values=True))


def handle(handler, method, path, query, raw_body, who, rl):
    """Answers one /users/... request that passed authentication and the rate limit."""
    st = handler.server.state
    c = state(st)
    route = parse_route(path)
    kind = kind_of(method, route[1]) if route else None
    if kind is None:
        return handler.message(404, NOT_FOUND, rl)
    username, rest = route
    with c.lock:
        c.counts[kind] = c.counts.get(kind, 0) + 1
    status, body = answer(handler, c, st, kind, method, username, rest, query, raw_body, who)
    with c.lock:
        c.statuses[str(status)] = c.statuses.get(str(status), 0) + 1
        holding = c.holds.get(kind, 0) > 0
        if holding:
            c.holds[kind] -= 1
            c.held += 1
            epoch = c.release_epoch
            c.hold_cond.notify_all()
            c.hold_cond.wait_for(lambda: c.release_epoch != epoch, timeout=HOLD_LIMIT)
            c.held -= 1
    try:
        if status == 204:
            handler.send_response(204)
            for k, v in rl.items():
                handler.send_header(k, v)
            handler.end_headers()
        else:
            handler.send(status, json.dumps(body), headers=rl)
    except (BrokenPipeError, ConnectionResetError):
        pass    # the client went away (killed while its answer was held)


def answer(handler, c, st, kind, method, username, rest, query, raw_body, who):
    owner_view = who in ("token", "oauth") and username.lower() == c.owner.lower()
    writes = kind in ("add", "edit", "delete", "set_field")
    with c.lock:
        user = c.user(username)
    if user is None:
        return 404, {"message": USER_MISSING}
    if not owner_view:
        if writes:
            return 403, {"message": NO_PERMISSION if who else VIEW_PRIVATE}
        public_ok = user.public and (kind in ("folders", "fields", "release_instances")
                                     or (kind in ("folder", "folder_releases") and rest[1] == "0"))
        if not public_ok:
            return 403, {"message": VIEW_PRIVATE}

    if kind == "fields":
        with c.lock:
            fields = [f for f in user.fields if owner_view or f.get("public")]
        return 200, {"fields": fields}

    if kind in ("folders", "folder"):
        with c.lock:
            folders = [folder_json(user, 0, "All", len(user.instances))]
            for fid in sorted(user.folders):
                count = sum(1 for i in user.instances.values() if i["folder_id"] == fid)
                folders.append(folder_json(user, fid, user.folders[fid], count))
        if not owner_view:
            folders = folders[:1]
        if kind == "folders":
            return 200, {"folders": folders}
        fid = number(rest[1])
        found = [f for f in folders if f["id"] == fid]
        return (200, found[0]) if found else (404, {"message": "Folder not found."})

    if kind == "folder_releases":
        fid = number(rest[1])
        with c.lock:
            if fid is None or (fid != 0 and fid not in user.folders):
                return 404, {"message": "Folder not found."}
            insts = [i for i in user.instances.values() if fid == 0 or i["folder_id"] == fid]
            insts = ordered(c, user, insts, query.get("sort", ""), query.get("sort_order", "asc"))
            base = "https://api.discogs.com/users/%s/collection/folders/%d/releases" % (urllib.parse.quote(user.name), fid)
            status, body = page_of(handler, c, user, insts, query, owner_view, base)
            if status == 200:
                apply_quirks(c, user, body)
            return status, body

    if kind == "release_instances":
        rid = number(rest[1])
        if not rid:
            return 404, {"message": "Release not found."}
        with c.lock:
            insts = sorted((i for i in user.instances.values() if i["release_id"] == rid), key=lambda i: i["instance_id"])
            base = "https://api.discogs.com/users/%s/collection/releases/%d" % (urllib.parse.quote(user.name), rid)
            return page_of(handler, c, user, insts, query, owner_view, base)

    fid, rid = number(rest[1]), number(rest[3])
    if kind == "add":
        if fid == 0:
            return 422, {"message": "Releases cannot be added to the All folder (0): use 1 for Uncategorized."}
        if rid is None or basic_information(st, c, rid) is None:
            return 404, {"message": "Release not found."}
        with c.lock:
            if fid not in user.folders:
                return 404, {"message": "Folder not found."}
            inst = new_instance(c, user, rid, fid, discogs_time(datetime.datetime.now(datetime.timezone.utc)), 0, {})
            body = item(c, user, inst, True)
            body["resource_url"] = "https://api.discogs.com/users/%s/collection/folders/%d/releases/%d?instance_id=%d" % (
                urllib.parse.quote(user.name), fid, rid, inst["instance_id"])
            return 201, body

    iid = number(rest[5])
    with c.lock:
        inst = user.instances.get(iid)
        # The folder in the path must be the instance's own (Discogs names an instance by
        # folder, release and instance together).
        if inst is None or inst["release_id"] != rid or inst["folder_id"] != fid:
            return 404, {"message": "Instance not found."}
    if kind == "delete":
        with c.lock:
            del user.instances[iid]
            user.generation += 1
        return 204, None
    if kind == "edit":
        params = body_params(handler, raw_body)
        if params is None:
            return 400, {"message": "The request body is not valid JSON."}
        changes = {}
        if "rating" in params:
            try:
                rating = int(params["rating"])
            except (TypeError, ValueError):
                rating = -1
            if not 0 <= rating <= 5:
                return 422, {"message": "Rating must be an integer between 0 and 5."}
            changes["rating"] = rating
        if "folder_id" in params:
            try:
                target = int(params["folder_id"])
            except (TypeError, ValueError):
                target = -1
            with c.lock:
                if target not in user.folders:
                    return 422, {"message": "Invalid folder_id: %s." % params["folder_id"]}
            changes["folder_id"] = target
        with c.lock:
            inst.update(changes)
            user.generation += 1
        return 204, None
    # set_field
    field_id = number(rest[7])
    value = query.get("value")
    if value is None:
        params = body_params(handler, raw_body) or {}
        value = params.get("value")
    with c.lock:
        field = next((f for f in user.fields if f["id"] == field_id), None)
    if field is None:
        return 404, {"message": "Field not found."}
    if not isinstance(value, str):
        return 422, {"message": "A value is required."}
    # As api.discogs.com answers: an empty value is no value, and no call empties a field.
    if value == "":
        return 422, {"message": "Missing value."}
    if field["type"] == "dropdown" and value not in field.get("options", []):
        return 422, {"message": "Invalid value for %s: %s." % (field["name"], value)}
    with c.lock:
        inst["notes"][str(field_id)] = value
        user.generation += 1
    return 204, None


def apply_quirks(c, user, body):
    """The listing quirks due for this page (called with c.lock held)."""
    pagination = body["pagination"]
    page = pagination["page"]
    for q in c.quirks:
        if q["count"] <= 0 or q["page"] != page:
            continue
        q["count"] -= 1
        if q["quirk"] == "empty":
            body["releases"] = []
        elif q["quirk"] == "shrink":
            pagination["pages"] = page
            pagination["items"] = min(pagination["items"], page * pagination["per_page"])
        elif q["quirk"] == "drop":
            if user.instances.pop(q["instance"], None) is not None:
                user.generation += 1


def folder_json(user, fid, name, count):
    return {"id": fid, "name": name, "count": count,
            "resource_url": "https://api.discogs.com/users/%s/collection/folders/%d" % (urllib.parse.quote(user.name), fid)}


def new_instance(c, user, rid, fid, date_added, rating, notes, instance_id=None):
    """Called with c.lock held."""
    if instance_id is None:
        instance_id = c.next_instance
    c.next_instance = max(c.next_instance, instance_id + 1)
    inst = {"instance_id": instance_id, "release_id": rid, "folder_id": fid, "rating": rating,
            "date_added": date_added, "notes": {str(k): v for k, v in notes.items()}}
    user.instances[instance_id] = inst
    user.generation += 1
    return inst


# --- control ------------------------------------------------------------------------------
def control(handler, path, query, raw_body):
    st = handler.server.state
    c = state(st)
    what = path[len("/_control/collection/"):]
    if what == "seed":
        try:
            spec = json.loads(raw_body.decode("utf-8") or "{}")
            result = seed(st, c, spec)
        except (ValueError, KeyError, TypeError) as e:
            return handler.send(400, json.dumps({"message": "bad seed: %s" % e}))
        return handler.send(200, json.dumps(result))
    if what == "dump":
        with c.lock:
            user = c.user(query.get("username", c.owner))
            if user is None:
                return handler.send(404, json.dumps({"message": USER_MISSING}))
            out = {"username": user.name, "public": user.public,
                   "folders": [{"id": k, "name": v} for k, v in sorted(user.folders.items())],
                   "fields": user.fields,
                   "instances": [dict(i, notes=[{"field_id": int(k), "value": v} for k, v in sorted(i["notes"].items(), key=lambda p: int(p[0]))])
                                 for _, i in sorted(user.instances.items())]}
        return handler.send(200, json.dumps(out))
    if what == "stats":
        with c.lock:
            out = {"requests": dict(c.counts), "statuses": dict(c.statuses), "held": c.held}
        return handler.send(200, json.dumps(out))
    if what == "reset":
        with c.lock:
            c.release_epoch += 1     # held answers go first
            c.hold_cond.notify_all()
            c.reset()
        return handler.send(200, "{}")
    if what == "hold":
        with c.lock:
            kind = query.get("kind", "add")
            c.holds[kind] = c.holds.get(kind, 0) + int(query.get("count", "1"))
        return handler.send(200, "{}")
    if what == "listing":
        quirk = query.get("quirk", "")
        if quirk not in ("empty", "shrink", "drop"):
            return handler.send(400, json.dumps({"message": "quirk is empty, shrink or drop"}))
        with c.lock:
            c.quirks.append({"quirk": quirk, "page": int(query.get("page", "1")),
                             "count": int(query.get("count", "1")), "instance": int(query.get("instance", "0"))})
        return handler.send(200, "{}")
    if what == "change":
        with c.lock:
            user = c.user(query.get("username", c.owner))
            inst = user.instances.get(int(query.get("instance", "0"))) if user else None
            if inst is None:
                return handler.send(404, json.dumps({"message": NOT_FOUND}))
            if query.get("remove") == "1":
                user.instances.pop(inst["instance_id"])
            else:
                if "rating" in query:
                    inst["rating"] = int(query["rating"])
                for key, value in query.items():
                    if key.startswith("field_"):
                        if value == "":
                            inst["notes"].pop(key[len("field_"):], None)
                        else:
                            inst["notes"][key[len("field_"):]] = value
            user.generation += 1
        return handler.send(200, "{}")
    if what == "held":
        with c.lock:
            out = {"held": c.held}
        return handler.send(200, json.dumps(out))
    if what == "release":
        with c.lock:
            c.holds = {}
            c.release_epoch += 1
            c.hold_cond.notify_all()
        return handler.send(200, "{}")
    return handler.send(404, json.dumps({"message": "no such collection control"}))


def seed(st, c, spec):
    for spec_inst in spec.get("instances", []):   # fixture releases first (outside the lock)
        if "basic_information" not in spec_inst:
            basic_information(st, c, int(spec_inst["release_id"]))
    with c.lock:
        name = spec.get("username", c.owner)
        key = name.lower()
        if spec.get("replace", True):
            c.users.pop(key, None)
        user = c.user(name, create=True)
        user.public = bool(spec.get("public", user.public))
        for folder in spec.get("folders", []):
            fid = int(folder.get("id", 0)) or c.next_folder
            c.next_folder = max(c.next_folder, fid + 1)
            user.folders[fid] = folder["name"]
        if "fields" in spec:
            user.fields = spec["fields"]
        for info in spec.get("releases", []):
            c.catalogue[int(info["id"])] = info
        ids = []
        for spec_inst in spec.get("instances", []):
            rid = int(spec_inst["release_id"])
            if "basic_information" in spec_inst:
                c.catalogue[rid] = spec_inst["basic_information"]
            c.catalogue.setdefault(rid, {"id": rid, "title": "Release %d" % rid, "year": 0,
                                         "artists": [{"name": "Artist %d" % rid, "anv": "", "join": ""}],
                                         "labels": [], "formats": [], "genres": [], "styles": []})
            fid = int(spec_inst.get("folder_id", 1))
            if fid not in user.folders:
                raise ValueError("folder %d is not one of the user's" % fid)
            date_added = spec_inst.get("date_added")
            if date_added is None:   # one minute apart, in seeding order
                c.seed_clock += 1
                date_added = discogs_time(SEED_EPOCH + datetime.timedelta(minutes=c.seed_clock))
            notes = {int(n["field_id"]): n["value"] for n in spec_inst.get("notes", [])}
            inst = new_instance(c, user, rid, fid, date_added, int(spec_inst.get("rating", 0)), notes,
                                spec_inst.get("instance_id"))
            ids.append(inst["instance_id"])
        return {"username": user.name, "instance_ids": ids}
