#!/usr/bin/env python3
"""Writes the PNG variants the decoder tests compare with Cairo's reader: every colour type,
bit depths 1…16, palettes with and without tRNS (and indices past the palette), colour keys,
Adam7 interlacing, every filter type, IDAT split into several chunks, gAMA and text chunks.
Deterministic; run from this folder: python3 make-variants.py"""
import random
import struct
import zlib

W, H = 37, 23


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Samples (ints) to bytes at `depth` bits each, big-endian, padded to a byte."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = acc << depth | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filtered(rows, bpp, rng):
    """Each row filtered with a filter type chosen at random (all five appear)."""
    out, prior = bytearray(), bytes(len(rows[0])) if rows else b""
    for n, row in enumerate(rows):
        kind = n % 5 if n < 5 else rng.randrange(5)
        line = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            line.append((x - predictor) & 0xFF)
        out += bytes([kind]) + line
        prior = row
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(name, depth, color, pixel, extra=b"", interlace=False, split=1, seed=1):
    """pixel(x, y) -> tuple of samples for the colour type."""
    rng = random.Random(seed)
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    bpp = max(1, channels * depth // 8)
    if interlace:
        data = b""
        for x0, y0, dx, dy in ADAM7:
            xs, ys = range(x0, W, dx), range(y0, H, dy)
            if not xs or not ys:
                continue
            rows = [pack_row([s for x in xs for s in pixel(x, y)], depth) for y in ys]
            data += filtered(rows, bpp, rng)
    else:
        rows = [pack_row([s for x in range(W) for s in pixel(x, y)], depth) for y in range(H)]
        data = filtered(rows, bpp, rng)
    z = zlib.compress(data, 9)
    cut = [len(z) * k // split for k in range(split + 1)]
    idat = b"".join(chunk(b"IDAT", z[cut[k]:cut[k + 1]]) for k in range(split))
    head = chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, depth, color, 0, 0, 1 if interlace else 0))
    with open(name, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + head + extra + idat + chunk(b"tEXt", b"Comment\x00variant") + chunk(b"IEND", b""))


def v(x, y, k, top=255):
    return (x * 37 + y * 91 + k * 53 + (x * y) % 17) % (top + 1)


rng = random.Random(7)
palette = bytes(rng.randrange(256) for _ in range(3 * 200))
alphas = bytes([0, 255, 128, 1, 254] + [rng.randrange(256) for _ in range(95)])
gama = chunk(b"gAMA", struct.pack(">I", 100000))

png("rgba8.png", 8, 6, lambda x, y: (v(x, y, 0), v(x, y, 1), v(x, y, 2), [0, 255, v(x, y, 3)][(x + y) % 3]))
png("rgba8-gama-split.png", 8, 6, lambda x, y: (v(x, y, 4), v(x, y, 5), v(x, y, 6), v(x, y, 7)), extra=gama, split=4)
png("rgb8.png", 8, 2, lambda x, y: (v(x, y, 0), v(x, y, 1), v(x, y, 2)))
png("gray8.png", 8, 0, lambda x, y: (v(x, y, 0),))
png("gray-alpha8.png", 8, 4, lambda x, y: (v(x, y, 0), [0, 255, v(x, y, 1)][(x * y) % 3]))
png("palette8.png", 8, 3, lambda x, y: (v(x, y, 0, 199),), extra=chunk(b"PLTE", palette))
png("palette8-trns.png", 8, 3, lambda x, y: (v(x, y, 1, 199),), extra=chunk(b"PLTE", palette) + chunk(b"tRNS", alphas))
png("palette8-past-the-end.png", 8, 3, lambda x, y: (v(x, y, 2),), extra=chunk(b"PLTE", palette) + chunk(b"tRNS", alphas))
png("palette4-trns.png", 4, 3, lambda x, y: (v(x, y, 3, 15),), extra=chunk(b"PLTE", palette[:48]) + chunk(b"tRNS", alphas[:10]))
png("palette1.png", 1, 3, lambda x, y: ((x + y) % 2,), extra=chunk(b"PLTE", palette[:6]))
png("gray1.png", 1, 0, lambda x, y: ((x * y) % 2,))
png("gray2-trns.png", 2, 0, lambda x, y: (v(x, y, 0, 3),), extra=chunk(b"tRNS", struct.pack(">H", 2)))
png("gray8-trns.png", 8, 0, lambda x, y: (v(x, y, 1) // 32 * 32,), extra=chunk(b"tRNS", struct.pack(">H", 64)))
png("rgb8-trns.png", 8, 2, lambda x, y: (v(x, y, 0) // 64 * 64, 0, 64), extra=chunk(b"tRNS", struct.pack(">HHH", 128, 0, 64)))
png("gray16.png", 16, 0, lambda x, y: (v(x, y, 0, 65535),))
png("rgb16.png", 16, 2, lambda x, y: (v(x, y, 0, 65535), v(x, y, 1, 65535), v(x, y, 2, 65535)))
png("rgba16-gama.png", 16, 6, lambda x, y: (v(x, y, 0, 65535), v(x, y, 1, 65535), v(x, y, 2, 65535), v(x, y, 3, 65535)),
    extra=gama)
png("gray-alpha16.png", 16, 4, lambda x, y: (v(x, y, 0, 65535), v(x, y, 1, 65535)))
png("rgba8-interlaced.png", 8, 6, lambda x, y: (v(x, y, 0), v(x, y, 1), v(x, y, 2), v(x, y, 3)), interlace=True)
png("palette8-interlaced.png", 8, 3, lambda x, y: (v(x, y, 0, 199),), extra=chunk(b"PLTE", palette) + chunk(b"tRNS", alphas),
    interlace=True)
png("gray8-interlaced.png", 8, 0, lambda x, y: (v(x, y, 5),), interlace=True)
