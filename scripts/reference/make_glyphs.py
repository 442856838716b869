#!/usr/bin/env python3
"""Builds MapLibre SDF glyph ranges, `OUT/{fontstack}/{start}-{end}.pbf` (256 code points a
range), from the fonts installed here (fontconfig: the Noto fonts mapcompose draws labels with),
so that MapLibre Native (pymgl) can draw the labels of a style as mapcompose does.

The glyphs follow the conventions of MapLibre's own glyph maker (node-fontnik): each glyph is
loaded unhinted at 24 px with FreeType (PyPI freetype-py); `left`, `top`, `width` and `height`
are its outline's bounding box rounded to whole pixels, `top` being the box's top above the
baseline less the font's ascender at 24 px (FreeType's size metrics: 26 px for Noto Sans).
MapLibre draws a glyph `top` pixels above a point 17 px above the middle of its line, so that
point is the font's ascender line and Noto Sans's baseline lies 9 px below the middle.
`advance` is FreeType's advance in whole pixels (truncated).
The bitmap is (width+6)×(height+6) bytes, 3 pixels of buffer around the box, and holds the
signed distance d from each pixel's centre to the outline (positive outside, at most 8 px) as
255 − (32·d + 64), clamped to 0…255, so the outline is at 191 (cutoff 0.25). Distances are
measured to the outline itself (curves flattened into short segments, inside by the non-zero
rule) with numpy, not to a rasterised image.

Each font stack (`["Noto Sans Bold", "Open Sans Regular"]` is the stack
"Noto Sans Bold,Open Sans Regular", as MapLibre asks for it) maps to fonts as mapcompose maps it:
each name is a family and style words (`Noto Sans Bold` → family Noto Sans, style Bold), names
whose family is not installed are passed over, and Noto Sans in the first name's style comes
last. Unlike mapcompose, which draws bold or regular only, italic names get the italic font. A code point none of them has takes the first font of fontconfig's fallback list for that
style that has it (as Pango falls back). Only MapLibre Native's code points, U+0000…U+FFFF, are
built.

Only the ranges that the labels need are built: range 0-255 always, the ranges of every
character in the `--text` files (for example the GeoJSON the tiles were made from, whose names
become the labels; upper- and lower-case forms are added for `text-transform`) and those given
with `--ranges`. Font stacks come from the `text-font` values in `--style` files and from
`--stack`.

Usage (installs pinned PyPI packages into a cache venv when needed, see reference_env.py):
  python3 scripts/reference/make_glyphs.py OUT --style style.json --text Styles/data/ne_110m_cities.geojson
  python3 scripts/reference/make_glyphs.py OUT --stack "Noto Sans Regular" --ranges 0-255,256-511
"""
import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_env  # noqa: E402

SIZE, BUFFER, RADIUS, CUTOFF = 24, 3, 8, 0.25
STYLE_WORDS = {"Regular", "Bold", "Italic", "Medium", "Semibold", "SemiBold", "Light", "Black", "Heavy", "Condensed",
               "Oblique", "Book", "Thin", "ExtraBold", "Extra", "Ultra"}


# --- protobuf (glyphs.proto), written by hand --------------------------------------------------

def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_sint32(number, value):
    return field_varint(number, (value << 1) ^ (value >> 31) if value < 0 else value << 1)


def field_bytes(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data


def encode_glyph(g):
    body = field_varint(1, g["id"])
    if g["bitmap"]:
        body += field_bytes(2, g["bitmap"])
    body += field_varint(3, g["width"]) + field_varint(4, g["height"])
    body += field_sint32(5, g["left"]) + field_sint32(6, g["top"]) + field_varint(7, g["advance"])
    return body


def encode_range(stack, start, glyphs):
    """message glyphs { repeated fontstack stacks = 1; }, one fontstack with its glyphs."""
    body = field_bytes(1, stack.encode()) + field_bytes(2, f"{start}-{start + 255}".encode())
    for g in glyphs:
        body += field_bytes(3, encode_glyph(g))
    return field_bytes(1, body)


# --- fonts --------------------------------------------------------------------------------------

def split_name(name):
    """`Noto Sans Bold Italic` → ("Noto Sans", ["Bold", "Italic"]), as mapcompose reads a name."""
    words = name.split()
    style = []
    while len(words) > 1 and words[-1] in STYLE_WORDS:
        style.insert(0, words.pop())
    return " ".join(words), style


def fc_style(words):
    """A fontconfig pattern suffix for MapLibre style words (Noto has Regular, Bold and their italics)."""
    bold = any(w in ("Bold", "Black", "Heavy", "ExtraBold", "Semibold", "SemiBold") for w in words)
    italic = any(w in ("Italic", "Oblique") for w in words)
    return ":weight=bold" if bold else ":weight=regular", ":slant=italic" if italic else ":slant=roman"


def fc_match(pattern, sort=False):
    args = ["fc-match", "-f", "%{file}\t%{index}\t%{family}\n"] + (["-s"] if sort else []) + [pattern]
    rows = subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()
    return [(r.split("\t")[0], int(r.split("\t")[1] or 0), r.split("\t")[2]) for r in rows if r.count("\t") == 2]


class Fonts:
    """FreeType faces at 24 px for a font stack, with fontconfig's fallback list after them."""

    def __init__(self, stack):
        import freetype
        self.freetype = freetype
        self.faces = {}
        names = [n.strip() for n in stack.split(",") if n.strip()]
        first_style = split_name(names[0])[1] if names else []
        chain = []
        for name in names + ["Noto Sans " + " ".join(first_style)]:
            family, style = split_name(name.strip())
            weight, slant = fc_style(style)
            match = fc_match(f"{family}{weight}{slant}")
            # Installed only when fontconfig's best match is that family (else it fell back).
            if match and any(f.strip().lower() == family.lower() for f in match[0][2].split(",")):
                chain.append(match[0][:2])
        weight, slant = fc_style(first_style)
        self.chain = list(dict.fromkeys(chain))
        self.fallback = [m[:2] for m in fc_match(f"Noto Sans{weight}{slant}", sort=True)]
        self.described = ", ".join(Path(p).name + (f"#{i}" if i else "") for p, i in self.chain)

    def face(self, key):
        if key not in self.faces:
            face = self.freetype.Face(key[0], index=key[1])
            face.set_char_size(SIZE * 64)
            self.faces[key] = face
        return self.faces[key]

    def face_for(self, cp):
        for key in self.chain:
            if self.face(key).get_char_index(cp):
                return self.face(key)
        if cp < 0x20 or 0x7F <= cp < 0xA0:
            return None
        for key in self.fallback:
            try:
                face = self.face(key)
            except Exception:
                continue
            if face.get_char_index(cp):
                return face
        return None


# --- signed distance field ---------------------------------------------------------------------

def std_round(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def outline_rings(face):
    """The glyph's contours as closed polylines in pixels (y up), curves flattened."""
    rings, ring = [], []

    def point(v):
        return (v.x / 64.0, v.y / 64.0)

    def move_to(a, ctx):
        if len(ring) > 1:
            rings.append(ring[:] + [ring[0]])
        ring.clear()
        ring.append(point(a))

    def line_to(a, ctx):
        ring.append(point(a))

    def conic_to(a, b, ctx):
        p0, p1, p2 = ring[-1], point(a), point(b)
        n = 8
        for i in range(1, n + 1):
            t = i / n
            ring.append(((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
                         (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1]))

    def cubic_to(a, b, c, ctx):
        p0, p1, p2, p3 = ring[-1], point(a), point(b), point(c)
        n = 12
        for i in range(1, n + 1):
            t = i / n
            u = 1 - t
            ring.append((u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
                         u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]))

    face.glyph.outline.decompose(None, move_to=move_to, line_to=line_to, conic_to=conic_to, cubic_to=cubic_to)
    if len(ring) > 1:
        rings.append(ring[:] + [ring[0]])
    return rings


def render_glyph(face, cp):
    import freetype
    import numpy as np
    face.load_char(cp, freetype.FT_LOAD_NO_HINTING)
    ascender = face.size.ascender // 64
    advance = face.glyph.metrics.horiAdvance // 64
    glyph = {"id": cp, "bitmap": b"", "width": 0, "height": 0, "left": 0, "top": -ascender, "advance": advance}
    if face.glyph.format != freetype.FT_GLYPH_FORMAT_OUTLINE:
        return glyph
    rings = outline_rings(face)
    if not rings:
        return glyph
    pts = np.array([p for r in rings for p in r])
    xmin, ymin = std_round(pts[:, 0].min()), std_round(pts[:, 1].min())
    xmax, ymax = std_round(pts[:, 0].max()), std_round(pts[:, 1].max())
    width, height = xmax - xmin, ymax - ymin
    if width <= 0 or height <= 0 or width > 256 or height > 256:
        return glyph
    a = np.concatenate([np.array(r[:-1]) for r in rings])
    b = np.concatenate([np.array(r[1:]) for r in rings])
    w, h = width + 2 * BUFFER, height + 2 * BUFFER
    xs = np.arange(w) + 0.5 + xmin - BUFFER
    ys = (h - 1 - np.arange(h)) + 0.5 + ymin - BUFFER  # rows from the top
    px, py = np.meshgrid(xs, ys)
    p = np.stack([px.ravel(), py.ravel()], axis=1)[:, None, :]
    ab = (b - a)[None, :, :]
    ap = p - a[None, :, :]
    length2 = np.maximum((ab ** 2).sum(-1), 1e-12)
    t = np.clip((ap * ab).sum(-1) / length2, 0, 1)
    dist = np.sqrt((((ap - ab * t[..., None]) ** 2).sum(-1)).min(axis=1))
    # Non-zero winding: crossings of a ray to the right, signed by the edge's direction.
    ay, by = a[None, :, 1], b[None, :, 1]
    cross = ab[..., 0] * ap[..., 1] - ab[..., 1] * ap[..., 0]
    y = p[..., 1]
    up = (ay <= y) & (by > y) & (cross > 0)
    down = (by <= y) & (ay > y) & (cross < 0)
    inside = (up.sum(1) - down.sum(1)) != 0
    d = np.minimum(dist, RADIUS) * (256 / RADIUS)
    d = np.where(inside, -d, d) + CUTOFF * 256
    n = np.clip(d, 0, 255).astype(np.int32)
    bitmap = (255 - n).astype(np.uint8).tobytes()
    glyph.update(bitmap=bitmap, width=width, height=height, left=xmin, top=ymax - ascender)
    return glyph


# --- what to build -------------------------------------------------------------------------------

def stacks_in(value, out):
    """Font stacks named by a `text-font` value: a list of strings, or inside an expression or stops."""
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value) and value[0] not in ("literal", "step", "match", "case"):
            out.add(",".join(value))
        else:
            for v in value:
                stacks_in(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            stacks_in(v, out)


def style_stacks(path):
    style = json.loads(Path(path).read_text())
    out = set()
    for layer in style.get("layers", []):
        if layer.get("type") == "symbol" and "text-field" in layer.get("layout", {}):
            stacks_in(layer["layout"].get("text-font", ["Open Sans Regular", "Arial Unicode MS Regular"]), out)
    return out


def code_points_of_text(paths):
    cps = set()
    for path in paths:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        if path.endswith(".json") or path.endswith(".geojson"):
            text += json.dumps(json.loads(text), ensure_ascii=False)  # \u escapes as characters
        text += text.upper() + text.lower()
        cps.update(ord(c) for c in text)
    return cps


def build(out, stacks, starts, log=print):
    out = Path(out)
    for stack in sorted(stacks):
        fonts = Fonts(stack)
        folder = out / stack
        folder.mkdir(parents=True, exist_ok=True)
        counts = []
        for start in sorted(starts):
            glyphs = []
            for cp in range(start, start + 256):
                face = fonts.face_for(cp)
                if face is not None:
                    glyphs.append(render_glyph(face, cp))
            (folder / f"{start}-{start + 255}.pbf").write_bytes(encode_range(stack, start, glyphs))
            counts.append(f"{start}-{start + 255}: {len(glyphs)}")
        log(f"{stack} ({fonts.described or 'no font of the stack installed'}, then fontconfig's fallback): "
            + ", ".join(counts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder for {fontstack}/{start}-{end}.pbf")
    parser.add_argument("--style", action="append", default=[], help="a MapLibre style whose text-font stacks to build")
    parser.add_argument("--stack", action="append", default=[], help='a font stack, e.g. "Noto Sans Regular"')
    parser.add_argument("--text", action="append", default=[], help="a file whose characters the labels use")
    parser.add_argument("--ranges", default="", help="start-end,… ranges to build besides (e.g. 0-255,256-511)")
    args = parser.parse_args()
    reference_env.ensure()
    stacks = set(args.stack)
    for path in args.style:
        stacks |= style_stacks(path)
    if not stacks:
        parser.error("no font stack: give --style or --stack")
    starts = {0} | {cp // 256 * 256 for cp in code_points_of_text(args.text) if cp <= 0xFFFF}
    for item in filter(None, args.ranges.split(",")):
        starts.add(int(item.split("-")[0]) // 256 * 256)
    build(args.out, stacks, starts)


if __name__ == "__main__":
    main()
