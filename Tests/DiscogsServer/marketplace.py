"""Discogs' marketplace and collection value, as the loopback server answers them.

  GET /users/{u}                            the user's profile; "curr_abbr", the account's
                                            currency, only to the user (as "email")
  GET /users/{u}/collection/value           the owner only (403 otherwise): {"minimum", "median",
                                            "maximum"} as Discogs writes them ("$1,597.46"), in
                                            the account's currency
  GET /marketplace/stats/{id}[?curr_abbr=C] {"lowest_price": {"currency", "value"} | null,
                                            "num_for_sale", "blocked_from_sale"}: made from the id
                                            (an id ending in 0 has nothing for sale); in the
                                            account's currency without curr_abbr
  GET /marketplace/price_suggestions/{id}   signed in only; with seller settings a price per media
                                            grade in the account's currency, else {} (or 403, as
                                            the control says)

  GET /_control/marketplace?seller=yes|no|forbidden[&value=JSON][&currency=C]
                                            seller settings, the value, the account's currency
                                            (USD by default)
  GET /_control/marketplace?release=ID&stats=TEXT
                                            the body /marketplace/stats/ID answers from now on,
                                            as given (a figure crates cannot read, or absurd)
  The counts are in /_control/stats under "marketplace": profile, value, stats, suggestions.
"""
import json
import urllib.parse

GRADES = [("Mint (M)", 2.0), ("Near Mint (NM or M-)", 1.6), ("Very Good Plus (VG+)", 1.2), ("Very Good (VG)", 0.8),
          ("Good Plus (G+)", 0.5), ("Good (G)", 0.35), ("Fair (F)", 0.2), ("Poor (P)", 0.1)]
DEFAULT_VALUE = {"minimum": "1,597.46", "median": "3,506.77", "maximum": "7,505.54"}
# How Discogs writes an amount of each currency in the collection's value ("A$1,597.46").
SYMBOLS = {"USD": "$", "GBP": "£", "EUR": "€", "CAD": "CA$", "AUD": "A$", "JPY": "¥", "CHF": "CHF ", "MXN": "MX$",
           "BRL": "R$", "NZD": "NZ$", "SEK": "SEK ", "ZAR": "ZAR "}
NO_PERMISSION = "You don't have permission to access this resource."


def reset(st):
    st.marketplace = {"seller": "yes", "value": None, "currency": "USD", "stats": {}}
    st.stats["marketplace"] = {"profile": 0, "value": 0, "stats": 0, "suggestions": 0}


def count(st, kind):
    with st.lock:
        st.stats["marketplace"][kind] += 1


def lowest(release_id):
    """The lowest price of a release, from its id (None: nothing for sale)."""
    if release_id % 10 == 0:
        return None
    return round(release_id % 97 + 0.49, 2)


def handles(path):
    return (path.startswith("/marketplace/") or (path.startswith("/users/") and path.endswith("/collection/value"))
            or (path.startswith("/users/") and path.count("/") == 2))


def owner(st):
    return json.loads(st.read("identity.json"))["username"]


def handle(handler, path, query, who, rl):
    st = handler.server.state
    account = st.marketplace["currency"]
    if path.count("/") == 2:
        count(st, "profile")
        username = urllib.parse.unquote(path.split("/")[2])
        if username.lower() != owner(st).lower():
            return handler.message(404, "User does not exist or may have been deleted.", rl)
        body = {"id": 12579295, "username": owner(st), "resource_url": "https://api.discogs.com/users/" + owner(st),
                "num_collection": 3, "num_wantlist": 0, "num_for_sale": 0}
        if who is not None:   # the user's own: what only they see
            body.update({"email": "collector@example.com", "curr_abbr": account})
        return handler.send(200, json.dumps(body), headers=rl)
    if path.endswith("/collection/value"):
        count(st, "value")
        username = urllib.parse.unquote(path.split("/")[2])
        if who is None or username.lower() != owner(st).lower():
            return handler.message(403, NO_PERMISSION, rl)
        value = st.marketplace["value"] or {k: SYMBOLS.get(account, account + " ") + v for k, v in DEFAULT_VALUE.items()}
        return handler.send(200, json.dumps(value), headers=rl)
    parts = path.split("/")
    rid = parts[3] if len(parts) == 4 else ""
    if not rid.isdigit():
        return handler.message(404, "The requested resource was not found.", rl)
    release_id = int(rid)
    if parts[2] == "stats":
        count(st, "stats")
        given = st.marketplace["stats"].get(release_id)
        if given is not None:
            return handler.send(200, given, headers=rl)
        price = lowest(release_id)
        currency = query.get("curr_abbr", account)
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
        body = {name: {"currency": account, "value": round(base * factor, 2)} for name, factor in GRADES}
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
        if "currency" in query:
            st.marketplace["currency"] = query["currency"]
        if "release" in query and "stats" in query:
            st.marketplace["stats"][int(query["release"])] = query["stats"]
    handler.send(200, "{}")
    return True
