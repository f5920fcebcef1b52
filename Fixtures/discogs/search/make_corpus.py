#!/usr/bin/env python3
"""Writes corpus.json: the releases the loopback server searches by fields.

Run from the repository root: python3 Fixtures/discogs/search/make_corpus.py
The output is deterministic (no randomness, sorted keys), so running it again changes nothing
unless this script changed.

Each release is in a compact source form (artists with Discogs' name variation and join,
labels with catalogue numbers as printed, structured formats); Tests/DiscogsServer/
search_index.py turns them into search results and releases in Discogs' shapes. Entries with
ids below 20,000,000 are real Discogs releases seen in ../shared/discogs-samples/ (their
fields as recorded there); the others are hand-written in the same style: real artists and
titles, catalogue numbers in the styles printed on sleeves, not checked one by one against
Discogs.

What the corpus is for (Tests/CratesNetTests/DiscogsReleaseSearchTests.swift):
- catalogue numbers as printed: "CDP 7 46001 2" (twice: Europe and US), "1C 064-82 306",
  "ILPS 9135", "SHVL 804" and "SHVL.804" (the same key), "TPLP71CD" and "MOVLP001" printed
  without spaces, "HSH005" shared by two labels;
- accents and folding: Björk, Motörhead, Hüsker Dü, Sigur Rós, Édith Piaf, 坂本龍一;
- Discogs' markers: "Arthus (2)", "Nirvana (2)", "DJ Nemesis (4) vs Klubrockers", "Prodigy*"
  (name variation of The Prodigy);
- titles with several " - ": "Jay-Z - 99 Problems - Prodigy Remix", "Prodigy* - Звёзды
  Авторадио - Prodigy";
- a release without a year and without a catalogue number ("none");
- one title with 60 pressings: Pink Floyd, The Dark Side Of The Moon (countries, years,
  labels, catalogue numbers and formats all varying), for the pressing picker.
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))


def fmt(name, *descriptions, qty="1"):
    return {"name": name, "qty": qty, "descriptions": list(descriptions)}


LP = fmt("Vinyl", "LP", "Album")
CD = fmt("CD", "Album")


def release(rid, artists, title, labels, year, country, formats, genres, styles, **extra):
    """artists: [(name, anv, join)] or a plain name; labels: [(name, catno)]."""
    if isinstance(artists, str):
        artists = [(artists, "", "")]
    out = {
        "id": rid,
        "artists": [{"name": n, "anv": a, "join": j} for n, a, j in artists],
        "title": title,
        "labels": [{"name": n, "catno": c} for n, c in labels],
        "year": year,
        "country": country,
        "formats": formats,
        "genres": genres,
        "styles": styles,
    }
    out.update(extra)
    return out


DSOTM_TRACKS = ["Speak To Me", "Breathe", "On The Run", "Time", "The Great Gig In The Sky",
                "Money", "Us And Them", "Any Colour You Like", "Brain Damage", "Eclipse"]

# (country, year, label, catno, format): the originals and notable reissues.
DSOTM_BASE = [
    ("UK", 1973, "Harvest", "SHVL 804", fmt("Vinyl", "LP", "Album", "Stereo")),
    ("UK", 1973, "Harvest", "Q4SHVL 804", fmt("Vinyl", "LP", "Album", "Quadraphonic")),
    ("UK", 1973, "Harvest", "TC-SHVL 804", fmt("Cassette", "Album")),
    ("Australia", 1973, "Harvest", "SHVL.804", fmt("Vinyl", "LP", "Album")),
    ("US", 1973, "Harvest", "SMAS-11163", fmt("Vinyl", "LP", "Album")),
    ("US", 1973, "Harvest", "4XW-11163", fmt("Cassette", "Album")),
    ("US", 1973, "Harvest", "8XW-11163", fmt("8-Track Cartridge", "Album")),
    ("Canada", 1973, "Harvest", "SMAS-11163", fmt("Vinyl", "LP", "Album")),
    ("Germany", 1973, "Harvest", "1C 062-05 249", fmt("Vinyl", "LP", "Album")),
    ("France", 1973, "Harvest", "2C 064-05249", fmt("Vinyl", "LP", "Album")),
    ("Italy", 1973, "Harvest", "3C 064-05249", fmt("Vinyl", "LP", "Album")),
    ("Sweden", 1973, "Harvest", "4E 062-05249", fmt("Vinyl", "LP", "Album")),
    ("Netherlands", 1973, "Harvest", "5C 062-05249", fmt("Vinyl", "LP", "Album")),
    ("Portugal", 1973, "Harvest", "8E 062-05249", fmt("Vinyl", "LP", "Album")),
    ("Spain", 1973, "Harvest", "10C 062-005249", fmt("Vinyl", "LP", "Album")),
    ("Greece", 1973, "Harvest", "14C 062-05249", fmt("Vinyl", "LP", "Album")),
    ("Japan", 1973, "Odeon", "EMS-80324", fmt("Vinyl", "LP", "Album")),
    ("Brazil", 1973, "Harvest", "XSMVL-1021", fmt("Vinyl", "LP", "Album")),
    ("Argentina", 1973, "Harvest", "6314", fmt("Vinyl", "LP", "Album")),
    ("Mexico", 1973, "Harvest", "SLEM-427", fmt("Vinyl", "LP", "Album")),
    ("New Zealand", 1973, "Harvest", "SHVL-804", fmt("Vinyl", "LP", "Album")),
    ("Yugoslavia", 1974, "Harvest", "LSHAR 73027", fmt("Vinyl", "LP", "Album")),
    ("US", 1979, "Mobile Fidelity Sound Lab", "MFSL 1-017", fmt("Vinyl", "LP", "Album", "Limited Edition", "Remastered")),
    ("Europe", 1984, "Harvest", "CDP 7 46001 2", CD),
    ("US", 1984, "Capitol Records", "CDP 7 46001 2", CD),
    ("Japan", 1984, "Toshiba EMI", "CP35-3017", CD),
    ("UK", 1993, "EMI", "CDEMD 1064", fmt("CD", "Album", "Remastered")),
    ("Europe", 1994, "EMI", "7243 8 29752 2 9", fmt("CD", "Album", "Remastered")),
    ("Europe", 2003, "EMI", "7243 5 82136 2 1", fmt("SACD", "Album", "Hybrid", "Multichannel")),
    ("US", 2003, "Capitol Records", "CDP 7243 5 82136 2 1", fmt("SACD", "Album", "Hybrid", "Multichannel")),
    ("Europe", 2011, "EMI", "50999 028955 2 9", fmt("CD", "Album", "Remastered")),
    ("Europe", 2016, "Pink Floyd Records", "PFRLP8", fmt("Vinyl", "LP", "Album", "Reissue", "Remastered", "180 Gram")),
    ("Europe", 2016, "Pink Floyd Records", "PFR8", fmt("CD", "Album", "Reissue")),
    ("US", 2016, "Pink Floyd Records", "PFRLP8", fmt("Vinyl", "LP", "Album", "Reissue", "180 Gram")),
    ("Russia", 1999, "Not On Label (Pink Floyd)", "none", fmt("CD", "Album", "Unofficial Release")),
    ("South Korea", 1989, "EMI-Kemong", "KEMI-1001", fmt("Vinyl", "LP", "Album")),
]

# EMI's European repressings kept the original numbers: the same catalogue number in
# several years, under Harvest and then EMI, which the picker narrows by year or label.
DSOTM_REPRESSINGS = [(country, year, "Harvest" if year < 1984 else "EMI", catno, fmt("Vinyl", "LP", "Album", "Reissue"))
                     for (country, _, _, catno, _) in DSOTM_BASE[8:16]
                     for year in (1976, 1980, 1984)]


def dsotm():
    out = []
    for i, (country, year, label, catno, form) in enumerate(DSOTM_BASE + DSOTM_REPRESSINGS):
        out.append(release(20_000_001 + i, "Pink Floyd", "The Dark Side Of The Moon", [(label, catno)], year, country,
                           [form], ["Rock"], ["Prog Rock", "Psychedelic Rock"], master_id=10362, tracks=DSOTM_TRACKS))
    assert len(out) == 60, len(out)
    return out


OTHERS = [
    release(20_100_001, "Cat Stevens", "Tea For The Tillerman", [("Island Records", "ILPS 9135")], 1970, "UK", [LP],
            ["Rock", "Folk, World, & Country"], ["Folk Rock"],
            tracks=["Where Do The Children Play?", "Hard Headed Woman", "Wild World", "Father And Son"]),
    release(20_100_002, "Cat Stevens", "Tea For The Tillerman", [("A&M Records", "SP 4280")], 1970, "US", [LP],
            ["Rock", "Folk, World, & Country"], ["Folk Rock"]),
    release(20_100_011, "Kraftwerk", "Trans Europa Express", [("Kling Klang", "1C 064-82 306"), ("EMI Electrola", "1C 064-82 306")],
            1977, "Germany", [LP], ["Electronic"], ["Electro", "Synth-pop"]),
    release(20_100_012, "Kraftwerk", "Trans-Europe Express", [("Capitol Records", "SW-11603")], 1977, "US", [LP],
            ["Electronic"], ["Electro", "Synth-pop"]),
    release(20_100_013, "Kraftwerk", "Trans-Europe Express", [("Capitol Records", "EST 11603")], 1977, "UK", [LP],
            ["Electronic"], ["Electro", "Synth-pop"]),
    release(20_100_021, "Björk", "Homogenic", [("One Little Indian", "TPLP 71")], 1997, "UK", [LP],
            ["Electronic", "Pop"], ["Downtempo", "Experimental"]),
    release(20_100_022, "Björk", "Homogenic", [("One Little Indian", "TPLP71CD")], 1997, "UK", [CD],
            ["Electronic", "Pop"], ["Downtempo", "Experimental"]),
    release(20_100_023, "Björk", "Debut", [("One Little Indian", "TPLP 31 CD")], 1993, "UK", [CD],
            ["Electronic", "Pop"], ["Downtempo", "Trip Hop"]),
    release(20_100_031, "Motörhead", "Ace Of Spades", [("Bronze", "BRON 531")], 1980, "UK", [LP], ["Rock"], ["Heavy Metal"]),
    release(20_100_032, "Motörhead", "Overkill", [("Bronze", "BRON 515")], 1979, "UK", [LP], ["Rock"], ["Heavy Metal"]),
    release(20_100_041, "Hüsker Dü", "Zen Arcade", [("SST Records", "SST 027")], 1984, "US",
            [fmt("Vinyl", "LP", "Album", qty="2")], ["Rock"], ["Hardcore", "Punk"]),
    release(20_100_051, "Sigur Rós", "Ágætis Byrjun", [("Smekkleysa", "SM 79 CD")], 1999, "Iceland", [CD],
            ["Rock"], ["Post Rock", "Ambient"]),
    release(20_100_052, "Édith Piaf", "La Vie En Rose", [("Columbia", "FPX 123")], 1958, "France",
            [fmt("Vinyl", "7\"", "EP")], ["Pop"], ["Chanson"]),
    release(20_100_053, "坂本龍一", "音楽図鑑", [("School", "28MS 0075")], 1984, "Japan", [LP],
            ["Electronic"], ["Synth-pop"]),
    release(13_565_620, "Arthus (2)", "Catuaba EP", [("Hossh Records", "HSH005"), ("Syncrophone", "HSH005")], 2019, "UK",
            [fmt("File", "WAV", "EP", qty="4")], ["Electronic"], ["Tech House"]),
    release(6_990_537, "Home Street Home", "87trees", [("Home Street Home Records", "HSH005")], 2015, "Switzerland",
            [fmt("CD", "Compilation")], ["Electronic", "Hip Hop"], ["Downtempo", "Instrumental"]),
    release(20_100_061, "Nirvana (2)", "The Story Of Simon Simopath", [("Island Records", "ILP 959")], 1968, "UK",
            [fmt("Vinyl", "LP", "Album", "Mono")], ["Rock"], ["Psychedelic Rock"]),
    release(20_100_062, "Nirvana", "Nevermind", [("DGC", "DGC-24425")], 1991, "US", [LP], ["Rock"], ["Grunge"]),
    release(20_100_063, "Nirvana", "Nevermind", [("DGC", "DGCD-24425")], 1991, "US", [CD], ["Rock"], ["Grunge"]),
    release(20_100_071, "The Prodigy", "The Fat Of The Land", [("XL Recordings", "XLLP 121")], 1997, "UK",
            [fmt("Vinyl", "LP", "Album", qty="2")], ["Electronic"], ["Big Beat", "Breakbeat"]),
    release(4_847_483, [("The Prodigy", "Prodigy", "")], "Prodigy", [("Моно Центр", "R CD GR0054")], 2008, "Russia",
            [fmt("CD", "CD-ROM", "Compilation", "Unofficial Release")], ["Electronic"], ["Breakbeat", "Big Beat"]),
    release(3_254_091, [("The Prodigy", "Prodigy", "")], "Звёзды Авторадио - Prodigy", [("Альянс Imaging", "none")], 2007,
            "Russia", [fmt("DVD", "DVD-Video", "PAL", "Unofficial Release")], ["Electronic"], ["Breakbeat", "Techno", "Big Beat"]),
    release(4_087_807, "Jay-Z", "99 Problems - Prodigy Remix", [("Mercury", "none")], 2010, "UK",
            [fmt("CDr", "Single", "Promo")], ["Electronic"], ["Hip Hop"]),
    release(1_121_096, [("DJ Nemesis (4)", "", "vs"), ("Klubrockers", "", "")], "Prodigy Beat", [("Full Force Records", "FFR001")],
            2007, "UK", [fmt("Vinyl", "12\"")], ["Electronic"], ["Hard House"]),
    release(5_797_336, "Kurt Vile", "Childish Prodigy", [("Matador", "OLE-887-2")], 2009, "US", [CD], ["Rock"],
            ["Alternative Rock", "Indie Rock"], companies=["Matador", "Matador", "West West Side Music", "Uniform Recording"]),
    release(4_316_335, "Tony Tuff", "All Day Rockers", [("Prodigy", "none")], None, "Jamaica", [fmt("Vinyl", "7\"")],
            ["Reggae"], ["Roots Reggae"]),
    release(20_100_081, "Miles Davis", "Kind Of Blue", [("Music On Vinyl", "MOVLP001")], 2009, "Europe",
            [fmt("Vinyl", "LP", "Album", "Reissue", "180 Gram")], ["Jazz"], ["Modal"]),
    release(20_100_082, "Miles Davis", "Kind Of Blue", [("Columbia", "CL 1355")], 1959, "US",
            [fmt("Vinyl", "LP", "Album", "Mono")], ["Jazz"], ["Modal"]),
    release(20_100_083, "Miles Davis", "Kind Of Blue", [("Columbia", "CS 8163")], 1959, "US",
            [fmt("Vinyl", "LP", "Album", "Stereo")], ["Jazz"], ["Modal"]),
    release(20_100_091, "Various", "Nuggets: Original Artyfacts From The First Psychedelic Era, 1965-1968",
            [("Elektra", "7E-2006")], 1972, "US", [fmt("Vinyl", "LP", "Compilation", qty="2")], ["Rock"], ["Garage Rock", "Psychedelic Rock"]),
]


def main():
    releases = dsotm() + OTHERS
    ids = [r["id"] for r in releases]
    assert len(ids) == len(set(ids)), "duplicate release ids"
    text = json.dumps({"_comment": "Written by make_corpus.py; see its docstring. Served by Tests/DiscogsServer/search_index.py.",
                       "releases": releases}, ensure_ascii=False, indent=1, sort_keys=True)
    with open(os.path.join(here, "corpus.json"), "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
