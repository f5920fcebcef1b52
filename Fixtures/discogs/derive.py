#!/usr/bin/env python3
"""Derives the Discogs fixtures from the recorded responses in ../shared/discogs-samples/.

Run from the repository root: python3 Fixtures/discogs/derive.py [SAMPLES_DIR]
Release and identity bodies are copied byte for byte from the recordings; search pages are
built in the modern search-result shape from those releases (no barcode-filtered search was
ever recorded; its shape is the same as any search). See README.md for each file's source.
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
samples = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "discogs-samples")


def sample(name):
    with open(os.path.join(samples, name), encoding="utf-8") as f:
        return f.read()


def recording_body(name):
    return json.loads(sample(name))[0]["responseBody"]


def http_body(name):
    return sample(name).split("\r\n\r\n", 1)[-1] if "\r\n\r\n" in sample(name) else sample(name).split("\n\n", 1)[1]


def write(path, text):
    full = os.path.join(here, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def page(results, per_page=100):
    return json.dumps({"pagination": {"page": 1, "pages": 1, "per_page": per_page, "items": len(results), "urls": {}},
                       "results": results})


def result_from_release(r, barcode):
    """A search hit in the modern shape (cf. discogs-search-artist-title-2022.json) for release r."""
    artists = " & ".join(a["name"] for a in r["artists"])
    flat = []
    for f in r["formats"]:
        flat += [f["name"]] + f.get("descriptions", [])
    return {"country": r.get("country", ""), "year": str(r.get("year", "")), "format": flat,
            "label": [l["name"] for l in r["labels"]], "type": "release", "genre": r.get("genres", []),
            "style": r.get("styles", []), "id": r["id"], "barcode": barcode,
            "user_data": {"in_wantlist": False, "in_collection": False},
            "master_id": r.get("master_id", 0), "master_url": r.get("master_url"),
            "uri": "/" + r["uri"].rsplit("/", 1)[-1].split("-", 1)[-1] + "/release/" + str(r["id"]),
            "catno": r["labels"][0]["catno"] if r["labels"] else "", "title": artists + " - " + r["title"],
            "thumb": r.get("thumb", ""), "cover_image": r.get("thumb", ""),
            "resource_url": r["resource_url"], "community": {"want": r["community"]["want"], "have": r["community"]["have"]},
            "format_quantity": r.get("format_quantity", 1),
            "formats": [{"name": f["name"], "qty": f["qty"], "descriptions": f.get("descriptions", [])} for f in r["formats"]]}


# Releases and identity: verbatim bodies.
hammerfall = recording_body("discogs-release-5134861-2026.recording.json")
write("releases/5134861.json", hammerfall)
holovr = sample("discogs-release-10507194-2022.json")
write("releases/10507194.json", holovr)
persuader = http_body("discogs-release-2014.http")
write("releases/1.json", persuader)
write("identity.json", recording_body("discogs-identity-200-2026.recording.json"))

# Errors: verbatim bodies.
write("errors/401-unauthenticated.json", recording_body("discogs-identity-401-unauthenticated-2026.recording.json"))
write("errors/401-invalid-token.json", sample("discogs-401-invalid-token-2019.json"))
write("errors/404-release.json", recording_body("discogs-release-404-2026.recording.json"))
write("errors/429.json", sample("discogs-429-body-reconstructed.json"))
write("errors/500-query-time.json", sample("discogs-search-500-docs-example.json"))

# Searches.
hf = json.loads(hammerfall)
# The barcode as Discogs stores it (identifiers[].value, spaced as printed).
write("search/one-hammerfall.json", page([result_from_release(hf, [i["value"] for i in hf["identifiers"]])]))
hv = json.loads(holovr)
# One release listed twice: the search matched two of its identifiers.
twice = result_from_release(hv, ["5099750442227", "5 099750 442227", "LM-05 A", "LM-05 B"])
write("search/same-release-twice-holovr.json", page([twice, dict(twice)]))
# Several pressings: the two release hits of the 2022 artist/title search (the master hit
# left out, as type=release excludes masters); their barcode[] holds runout text only.
healer = json.loads(sample("discogs-search-artist-title-2022.json"))
write("search/several-dj-healer.json", page([r for r in healer["results"] if r["type"] == "release"]))
# A 2014-shaped hit (no formats[], no master fields) for release 1.
ps = json.loads(persuader)
old = {k: v for k, v in result_from_release(ps, [i["value"] for i in ps["identifiers"]]).items()
       if k not in ("formats", "format_quantity", "user_data", "master_id", "master_url", "cover_image")}
write("search/one-persuader-2014.json", page([old], per_page=50))
# A hit whose release has since been deleted (GET /releases/2147483647 is a 404).
gone = dict(result_from_release(hf, ["0 12345 67890 5"]), id=2147483647,
            resource_url="https://api.discogs.com/releases/2147483647")
write("search/one-deleted-release.json", page([gone]))
write("search/empty.json", sample("discogs-search-empty-2019.json"))
print("fixtures written under", here)
