#!/usr/bin/env python3
"""Builds the seed corpora in Fuzz/.corpus/<target>/ (git-ignored) from the repository's
fixtures, the committed seeds in Fuzz/Seeds/<target>/ and every regression input in
Tests/Fixtures/FuzzRegressions/<target>/. Files already there (found by earlier runs) are kept.
Standard library only."""
import json
import os
import shutil
import sqlite3
import struct
import zlib
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / ".corpus"
TARGETS = ["style", "tile-decoder", "geojson", "mbtiles", "arcgis-bundle", "arcgis-conf", "manifest", "xml",
           "vector-tile", "pmtiles", "maplibre-style", "expression", "png-structure", "png-differential"]


def add(target, name, data):
    path = CORPUS / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def copy_folder(target, folder, prefix):
    if folder.is_dir():
        for file in sorted(folder.iterdir()):
            if file.is_file():
                add(target, f"{prefix}-{file.name}", file.read_bytes())


def png(width, height, depth, color_type, rows, extra=b"", interlace=0):
    """A PNG from raw filtered-free rows (filter byte 0 is added)."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, interlace)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def tile_seeds():
    tiles = sorted((ROOT / "Tests/Fixtures/Reference/tiles").rglob("*.png"), key=lambda p: p.stat().st_size)
    small = [file for file in tiles if file.stat().st_size <= 16384]
    for file in small[:: max(1, len(small) // 12)]:
        add("tile-decoder", "reference-" + "-".join(file.relative_to(ROOT / "Tests/Fixtures/Reference/tiles").parts), file.read_bytes())
    plte = struct.pack(">I", 6) + b"PLTE" + b"\xff\x00\x00\x00\x00\xff"
    plte += struct.pack(">I", zlib.crc32(b"PLTE\xff\x00\x00\x00\x00\xff") & 0xFFFFFFFF)
    trns = struct.pack(">I", 1) + b"tRNS" + b"\x80" + struct.pack(">I", zlib.crc32(b"tRNS\x80") & 0xFFFFFFFF)
    made = {
        "gray8.png": png(2, 2, 8, 0, [b"\x00\xff", b"\x80\x40"]),
        "gray-alpha8.png": png(2, 1, 8, 4, [b"\x10\x80\xf0\xff"]),
        "rgb16.png": png(1, 2, 16, 2, [b"\xff\xff\x00\x00\x80\x00", b"\x00\x00\xff\xff\x00\x00"]),
        "rgba16.png": png(2, 1, 16, 6, [b"\xff\xff\x00\x00\x00\x00\x80\x00" * 2]),
        "palette.png": png(2, 1, 1, 3, [b"\x40"], extra=plte + trns),
        "gray1-interlaced.png": png(3, 3, 1, 0, [b"\xa0", b"\x40", b"\xe0"], interlace=1),
    }
    for name, data in made.items():
        add("tile-decoder", name, data)


def png_seeds():
    """The PNG targets start from every PNG variant (each colour type and depth, palettes,
    transparency, interlacing) and the tile decoder's PNG seeds."""
    for target in ("png-structure", "png-differential"):
        copy_folder(target, ROOT / "Tests/Fixtures/PNGVariants", "variant")
        for file in (CORPUS / "tile-decoder").iterdir():
            if file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n":
                add(target, file.name, file.read_bytes())


def geojson_seeds():
    add("geojson", "cities.geojson", (ROOT / "Styles/data/ne_110m_cities.geojson").read_bytes())
    countries = json.loads((ROOT / "Styles/data/ne_110m_countries.geojson").read_text())
    small = sorted(countries["features"], key=lambda f: len(json.dumps(f)))
    for index, feature in enumerate(small[:8] + small[-2:]):
        collection = {"type": "FeatureCollection", "features": [feature]}
        add("geojson", f"country-{index}.geojson", json.dumps(collection).encode())


def mbtiles(name, statements, page_size=512):
    path = CORPUS / "mbtiles" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA page_size = {page_size}")
    for statement, *arguments in statements:
        db.execute(statement, *arguments)
    db.commit()
    db.execute("VACUUM")
    db.close()


def mbtiles_seeds():
    tile = min((ROOT / "Tests/Fixtures/Reference/tiles").rglob("*.png"), key=lambda p: p.stat().st_size).read_bytes()
    schema = [
        ("CREATE TABLE metadata (name TEXT, value TEXT)",),
        ("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)",),
        ("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)",),
    ]
    def meta(name, value):
        return ("INSERT INTO metadata VALUES (?, ?)", (name, value))
    def put(z, x, y, data):
        return ("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, y, data))
    mbtiles("text-metadata.mbtiles", schema + [meta("minzoom", "0"), meta("maxzoom", "1"), meta("format", "png"),
                                               meta("bounds", "-180,-85,180,85"), meta("attribution", "seed"),
                                               put(0, 0, 0, tile), put(1, 0, 1, tile)])
    mbtiles("integer-metadata.mbtiles", schema + [meta("minzoom", 0), meta("maxzoom", 2), put(0, 0, 0, tile)])
    mbtiles("blob-metadata.mbtiles", schema + [meta("minzoom", b"\x00\x01"), meta("maxzoom", 3.0), put(0, 0, 0, tile)])
    mbtiles("deep-metadata.mbtiles", schema + [meta("minzoom", "62"), meta("maxzoom", "63"), put(2, 0, 0, tile)])
    mbtiles("no-metadata.mbtiles", schema + [put(3, 1, 1, tile), put(5, 0, 0, b"not an image")])
    mbtiles("text-zoom.mbtiles", [
        ("CREATE TABLE tiles (zoom_level TEXT, tile_column, tile_row, tile_data)",),
        put("1", 0, 0, tile), put(" 2", 0, 0, "text tile"),
    ])
    reference = sqlite3.connect(ROOT / "Tests/Fixtures/Reference/naturalearth.mbtiles")
    rows = reference.execute("SELECT name, value FROM metadata").fetchall()
    tiles = reference.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles "
                              "ORDER BY length(tile_data) LIMIT 3").fetchall()
    reference.close()
    mbtiles("reference-subset.mbtiles", schema + [meta(*row) for row in rows] + [put(*row) for row in tiles], page_size=1024)
    mbtiles("view.mbtiles", [
        ("CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT)",),
        ("CREATE TABLE images (tile_id TEXT, tile_data BLOB)",),
        ("CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data FROM map JOIN images USING (tile_id)",),
        ("CREATE TABLE metadata (name, value)",),
        ("INSERT INTO map VALUES (0, 0, 0, 'a')",), ("INSERT INTO images VALUES ('a', ?)", (tile,)),
    ])


def arcgis_seeds():
    """conf.xml / conf.cdi files of the committed caches; bundles in FuzzArcGISBundle's layouts
    (byte 0: bit 0 version 1, bit 1 raw) holding a small reference tile."""
    fixtures = ROOT / "Tests/Fixtures/ArcGIS"
    for conf in sorted(fixtures.rglob("conf.*")):
        add("arcgis-conf", "fixture-" + "-".join(conf.relative_to(fixtures).parts), conf.read_bytes())
    tile = min((ROOT / "Tests/Fixtures/Reference/tiles").rglob("*.png"), key=lambda p: p.stat().st_size).read_bytes()
    row, column = 1, 1
    # Structured version 2: the entry points just past the index, at the tile.
    v2_entry = (64 + 128 * 128 * 8 + 4) | (len(tile) << 40)
    add("arcgis-bundle", "structured-v2", bytes([0, row, column]) + struct.pack("<Q", v2_entry)
        + struct.pack("<I", len(tile)) + tile)
    # Structured version 1: the offset points at the tile's size prefix at the bundle's start.
    add("arcgis-bundle", "structured-v1", bytes([1, row, column]) + (0).to_bytes(5, "little")
        + struct.pack("<I", len(tile)) + tile)
    add("arcgis-bundle", "structured-v1-past-end", bytes([1, row, column]) + (1 << 39).to_bytes(5, "little") + tile[:8])
    # Raw version 2: the smallest committed bundle, whole.
    bundles = sorted(fixtures.rglob("*.bundle"), key=lambda p: p.stat().st_size)
    v2 = [b for b in bundles if not b.with_suffix(".bundlx").exists()]
    if v2 and v2[0].stat().st_size < 262144:
        add("arcgis-bundle", "raw-v2-fixture", bytes([2]) + v2[0].read_bytes())
    # Raw version 1: an index of 64 entries' worth (too short, so corrupt) and a bundle.
    add("arcgis-bundle", "raw-v1-short-index", bytes([3]) + struct.pack("<H", 168) + bytes(336)
        + struct.pack("<I", len(tile)) + tile)


def xml_seeds():
    """WMTS capabilities and conf.xml fixtures, and shapes that once broke the reader: deep
    nesting, a document type declaration, a bare processing instruction, CDATA."""
    for document in sorted((ROOT / "Tests/Fixtures/WMTS").glob("*.xml")):
        add("xml", "wmts-" + document.name, document.read_bytes())
    fixtures = ROOT / "Tests/Fixtures/ArcGIS"
    for conf in sorted(fixtures.rglob("conf.xml")):
        add("xml", "arcgis-" + "-".join(conf.relative_to(fixtures).parts), conf.read_bytes())
    add("xml", "deep", b"<a>" * 300 + b"</a>" * 300)
    add("xml", "doctype", b"<!DOCTYPE r [<!ENTITY e 'x'><!NOTATION n SYSTEM 'y'>]>\n<r a='&amp;'>&e;</r>")
    add("xml", "instruction-cdata", b"<?xml version='1.0'?><?bare?><Capabilities><![CDATA[<x>]]></Capabilities>")


def vector_tile_seeds():
    """The Natural Earth vector tile fixture, gzip'd and not, and its first layer alone."""
    tile = (ROOT / "Tests/Fixtures/VectorTiles/ne-2-2-1.mvt").read_bytes()
    add("vector-tile", "ne-2-2-1.mvt", tile)
    add("vector-tile", "ne-2-2-1.mvt.gz", zlib.compress(tile, 9, wbits=31))


def varints(values):
    out = bytearray()
    for value in values:
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                break
    return bytes(out)


def pmtiles_archive(root, leaves=b"", tiles=b"", tile_type=2, max_zoom=3):
    """A PMTiles v3 file: header, root directory, leaf directories, tile data."""
    root_start = 127
    leaf_start = root_start + len(root)
    tile_start = leaf_start + len(leaves)
    header = b"PMTiles\x03" + struct.pack("<QQQQQQQQQQQ", root_start, len(root), 0, 0, leaf_start, len(leaves),
                                            tile_start, len(tiles), 1, 1, 1)
    header += bytes([1, 2, 1, tile_type, 0, max_zoom]) + struct.pack("<iiiiBii", -1800000000, -850000000,
                                                                     1800000000, 850000000, 0, 0, 0)
    return header + root + leaves + tiles


def pmtiles_seeds():
    """Small archives: tiles 0..4 in the root, and the same behind one leaf directory."""
    tile = (ROOT / "Tests/Fixtures/Reference/tiles/0/0/0.png").read_bytes()[:200]
    entries = varints([5] + [0] + [1] * 4 + [1] * 5 + [len(tile)] * 5 + [1] + [0] * 4)
    add("pmtiles", "root.pmtiles", pmtiles_archive(zlib.compress(entries, 9, wbits=31), tiles=tile * 5))
    leaf = zlib.compress(entries, 9, wbits=31)
    root = zlib.compress(varints([1, 0, 0, len(leaf), 1]), 9, wbits=31)
    add("pmtiles", "leaf.pmtiles", pmtiles_archive(root, leaves=leaf, tiles=tile * 5))


EXPRESSIONS = [
    ["interpolate", ["linear"], ["zoom"], 0, 1, 10, ["*", 2, ["get", "rank"]]],
    ["step", ["zoom"], "#fff", 4, ["rgba", 10, 20, 30, 0.5]],
    ["match", ["get", "class"], ["city", "town"], 1, "motorway", 2, 0],
    ["case", ["has", "name"], ["concat", ["upcase", ["get", "name"]], " ", ["to-string", ["id"]]], "none"],
    ["all", ["==", ["geometry-type"], "Point"], ["<=", ["get", "rank"], 4], ["!", ["has", "brunnel"]]],
    ["==", "class", "ocean"],
    ["in", "class", "city", "town", "village"],
    ["coalesce", ["get", "name:en"], ["get", "name"], ["literal", [1, 2]]],
    ["format", ["get", "name"], {"font-scale": 1.2}, "\n", {}, ["number-format", ["get", "pop"], {"locale": "de"}]],
    ["let", "a", ["to-number", ["get", "pop"], 0], ["var", "a"]],
    ["interpolate-hcl", ["cubic-bezier", 0.4, 0, 0.6, 1], ["zoom"], 2, "red", 8, "hsla(120, 50%, 50%, 0.5)"],
    ["at", 1, ["array", "number", ["literal", [1, 2, 3]]]],
]


def maplibre_seeds():
    """The committed MapLibre styles, and every filter and paint/layout value in them plus a few
    hand-written expressions as expression seeds."""
    values = list(EXPRESSIONS)
    styles = sorted((ROOT / "Styles").glob("*.json")) + sorted((ROOT / "Tests/Fixtures").rglob("*.json"))
    for style in styles:
        try:
            doc = json.loads(style.read_text())
        except ValueError:
            continue
        if not (isinstance(doc, dict) and "version" in doc and "layers" in doc):
            continue
        add("maplibre-style", f"{style.parent.name}-{style.name}", style.read_bytes())
        for layer in doc["layers"]:
            values += [layer["filter"]] if "filter" in layer else []
            for group in ("paint", "layout"):
                values += [v for v in layer.get(group, {}).values() if isinstance(v, list)]
    for i, value in enumerate(values):
        add("expression", f"expression-{i}.json", json.dumps(value).encode())


def main():
    for target in TARGETS:
        (CORPUS / target).mkdir(parents=True, exist_ok=True)
        copy_folder(target, FUZZ / "Seeds" / target, "seed")
        copy_folder(target, ROOT / "Tests/Fixtures/FuzzRegressions" / target, "regression")
    for style in sorted((ROOT / "Styles").glob("*.yaml")):
        add("style", "styles-" + style.name, style.read_bytes())
    tile_seeds()
    png_seeds()
    geojson_seeds()
    mbtiles_seeds()
    arcgis_seeds()
    xml_seeds()
    vector_tile_seeds()
    pmtiles_seeds()
    maplibre_seeds()
    for target in TARGETS:
        print(f"corpus {target}: {len(os.listdir(CORPUS / target))} files")


if __name__ == "__main__":
    main()
