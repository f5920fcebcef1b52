"""Discogs' marketplace and collection value, as the loopback server answers them.

  GET /users/{u}/collection/value           the owner only (403 otherwise): {"minimum", "median",
                                            "maximum"} as Discogs writes them ("$1,597.46")
  GET /marketplace/stats/{id}[?curr_abbr=C] {"lowest_price": {"currency", "value"} | null,
                                            "num_for_sale", "blocked_from_sale"}: made from the id
                                            (an id ending in 0 has nothing for sale)
  GET /marketplace/price_suggestions/{id}   signed in only; with seller settings a price per media
                                            grade, else {} (or 403, as the control says)

  GET /_control/marketplace?seller=yes|no|forbidden[&value=JSON]   seller settings, the value
  The counts are in /_control/stats under "marketplace": value, stats, suggestions.
"""
import json
import urllib.parse

GRADES = [("Mint (M)", 2.0), ("Near Mint (NM or M-)", 1.6), ("Very Good Plus (VG+)", 1.2), ("Very Good (VG)", 0.8),
          ("Good Plus (G+)", 0.5), ("Good (G)", 0.35), ("Fair (F)", 0.2), ("Poor (P)", 0.1)]
DEFAULT_VALUE = {"minimum": "$1,597.46", "median": "$3,506.77", "maximum": "$7,505.54"}
NO_PERMISSION = "You don't have permission to access this resource."


def reset(st):
    st.marketplace = {"seller": "yes", "value": dict(DEFAULT_VALUE)}
    st.stats["marketplace"] = {"value": 0, "stats": 0, "suggestions": 0}


def count(st, kind):
    with st.lock:
        st.stats["marketplace"][kind] += 1


def lowest(release_id):
    """The lowest price of a release, from its id (None: nothing for sale)."""
    if release_id % 10 == 0:
        return None
    return round(release_id % 97 + 0.49, 2)


def handles(path):
    return path.startswith("/marketplace/") or (path.startswith("/users/") and path.endswith("/collection/value"))


def handle(handler, path, query, who, rl):
    st = handler.server.state
    if path.endswith("/collection/value"):
        count(st, "value")
        username = urllib.parse.unquote(path.split("/")[2])
        owner = json.loads(st.read("identity.json"))["username"]
        if who is None or username.lower() != owner.lower():
            return handler.message(403, NO_PERMISSION, rl)
        return handler.send(200, json.dumps(st.marketplace["value"]), headers=rl)
    parts = path.split("/")
    rid = parts[3] if len(parts) == 4 else ""
    if not rid.isdigit():
        return handler.message(404, "The requested resource was not found.", rl)
    release_id = int(rid)
    if parts[2] == "stats":
        count(st, "stats")
        price = lowest(release_id)
        currency = query.get("curr_abbr", "USD")
        body = {"lowest_price": None if price is None else {"currency": currency, "value": price},
                "num_for_sale": 0 if price is None else release_id % 13 + 1, "blocked_from_sale": False}
        return handler.send(200, json.dumps(body), headers=rl)
    if parts[2] == "price_suggestions":
        count(st, "suggestions")
        if who is None:
            return handler.fixture("errors/401-unauthenticated.json", 401, rl)
        seller = st.marketplace["seller"]
        if seller == "forbidden":
            return handler.message(403, NO_PERMISSION, rl)
        if seller != "yes":
            return handler.send(200, "{}", headers=rl)
        base = release_id % 97 + 1
        body = {name: {"currency": "USD", "value": round(base * factor, 2)} for name, factor in GRADES}
        return handler.send(200, json.dumps(body), headers=rl)
    return handler.message(404, "The requested resource was not found.", rl)


def control(handler, path, query):
    st = handler.server.state
    if path != "/_control/marketplace":
        return False
    with st.lock:
        if "seller" in query:
            st.marketplace["seller"] = query["seller"]
        if "value" in query:
            st.marketplace["value"] = json.loads(query["value"])
    handler.send(200, "{}")
    return True
