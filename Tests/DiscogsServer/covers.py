"""Cover images for the loopback Discogs server.

Discogs gives image addresses only in answers to signed requests: an anonymous answer has
empty strings where `images[].uri`, `uri150`, `resource_url`, `thumb` and `cover_image` are.
`rewrite` does the same to every JSON answer this server sends: each image address of a
release becomes one on this server, `/images/R-<release>-<n>.jpg`, when the request was
signed, and "" when it was not.

`/images/R-<release>-<n>.<ext>` serves the release's image, as set by
`/_control/covers/set?release=ID&kind=K` (K: jpeg, png, 404, corrupt, webp; and what an
image address may answer that is no image crates reads: gif, svg, html (a 200 page, as a
portal's), huge (17 MB that begin as a JPEG)); without one, a
real JPEG for an even release id and a real PNG for an odd one (both 64x64, the left half
red, the right half blue: images/). Image requests are never rate-limited by this server,
but /_control/fault and /_control/hold apply to them (match "/images/").

Control endpoints (never counted):
  GET /_control/covers                     {"requests": N, "paths": {path: count}}: every
                                           image request since the last reset
  GET /_control/covers/set?release=ID&kind=K
"""
import json
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "images")
FILES = {"jpeg": ("red-blue.jpg", "image/jpeg"), "png": ("red-blue.png", "image/png"),
         "corrupt": ("corrupt.jpg", "image/jpeg"), "webp": ("cover.webp", "image/webp")}
IMAGE_KEYS = ("uri", "uri150", "resource_url")
# Answers made here rather than read from images/: (bytes, content type).
MADE = {
    "gif": (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\xff!\xf9\x04\x01\x00\x00\x00\x00"
            b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;", "image/gif"),
    "svg": (b'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>',
            "image/svg+xml"),
    "html": (b"<!DOCTYPE html><html><body>Sign in to the network to continue</body></html>", "text/html"),
    "huge": (b"\xff\xd8\xff\xe0" + b"\x00" * (17 << 20), "image/jpeg"),
}


def reset(st):
    st.covers = {"kinds": {}, "requests": 0, "paths": {}}


def _addresses(node, release, found):
    """Maps each image address in `node` to (release id, n) of the release it belongs to."""
    if isinstance(node, dict):
        rid = node.get("id")
        if isinstance(rid, int) and any(k in node for k in ("images", "thumb", "cover_image")):
            release = rid
        for key in ("thumb", "cover_image"):
            value = node.get(key)
            if isinstance(value, str) and value.startswith("http") and release is not None:
                found.setdefault(value, (release, 0 if key == "cover_image" else 1))
        images = node.get("images")
        if isinstance(images, list) and release is not None:
            for n, image in enumerate(images):
                if isinstance(image, dict):
                    for key in IMAGE_KEYS:
                        value = image.get(key)
                        if isinstance(value, str) and value.startswith("http"):
                            found.setdefault(value, (release, 2 + n))
        for value in node.values():
            _addresses(value, release, found)
    elif isinstance(node, list):
        for value in node:
            _addresses(value, release, found)


def rewrite(handler, data):
    """The JSON answer `data` (bytes) with its image addresses made this server's (signed
    requests) or emptied (anonymous ones); anything that is not JSON is left as it is."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return data
    found = {}
    _addresses(document, None, found)
    if not found:
        return data
    text = data.decode("utf-8")
    host = handler.headers.get("Host", "127.0.0.1")
    signed = getattr(handler, "who", None) is not None
    for address, (release, n) in found.items():
        local = "http://%s/images/R-%d-%d.jpg" % (host, release, n) if signed else ""
        text = text.replace(json.dumps(address), json.dumps(local))
        # Fixtures may write "/" as "\/" inside strings.
        text = text.replace(json.dumps(address).replace("/", "\\/"), json.dumps(local))
    return text.encode("utf-8")


def serve(handler, path):
    """/images/R-<release>-<n>.<ext>: the release's image, counted."""
    st = handler.server.state
    with st.lock:
        st.covers["requests"] += 1
        st.covers["paths"][path] = st.covers["paths"].get(path, 0) + 1
    st.wait_if_held(handler.path)
    fault = st.take_fault(handler.path)
    if fault == "429":
        return handler.send(429, json.dumps({"message": "You are making requests too quickly."}),
                            headers={"Retry-After": "1"})
    if fault:
        return handler.fault(fault, {})
    name = path.rsplit("/", 1)[-1]
    try:
        release = int(name.split("-")[1])
    except (IndexError, ValueError):
        return handler.send(404, "<html><body>Not found</body></html>", "text/html")
    with st.lock:
        kind = st.covers["kinds"].get(release) or ("jpeg" if release % 2 == 0 else "png")
    if kind in MADE:
        body, ctype = MADE[kind]
    elif kind == "404" or kind not in FILES:
        return handler.send(404, "<html><body>Not found</body></html>", "text/html")
    else:
        filename, ctype = FILES[kind]
        with open(os.path.join(HERE, filename), "rb") as f:
            body = f.read()
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def control(handler, path, query):
    st = handler.server.state
    if path == "/_control/covers":
        with st.lock:
            stats = json.loads(json.dumps(st.covers))
        return handler.send(200, json.dumps({"requests": stats["requests"], "paths": stats["paths"]})) or True
    if path == "/_control/covers/set":
        with st.lock:
            st.covers["kinds"][int(query.get("release", "0"))] = query.get("kind", "jpeg")
        return handler.send(200, "{}") or True
    return False
