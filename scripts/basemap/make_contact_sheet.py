#!/usr/bin/env python3
"""Writes docs/basemap-sheet.png: the card's command (zoom 12, default style) over eight cities,
then London at zoom 3, 6 and 9 and Tokyo in default-dark, drawn by the release binary over the
installed world basemap (`make basemap`), with a caption under each. Needs Pillow.

    python3 scripts/basemap/make_contact_sheet.py [--binary .build/release/mapcompose]
"""
import argparse
import pathlib
import subprocess
import tempfile

from PIL import Image, ImageDraw

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PANELS = [
    ("London", "51.5,-0.12", 12, "default"),
    ("Tokyo", "35.68,139.69", 12, "default"),
    ("New York", "40.71,-74.01", 12, "default"),
    ("Cairo", "30.04,31.24", 12, "default"),
    ("Rio de Janeiro", "-22.91,-43.17", 12, "default"),
    ("Sydney", "-33.87,151.21", 12, "default"),
    ("Mumbai", "19.08,72.88", 12, "default"),
    ("Reykjavik", "64.15,-21.94", 12, "default"),
    ("London", "51.5,-0.12", 3, "default"),
    ("London", "51.5,-0.12", 6, "default"),
    ("London", "51.5,-0.12", 9, "default"),
    ("Tokyo", "35.68,139.69", 10, "default-dark"),
]
WIDTH, HEIGHT, CAPTION, COLUMNS = 480, 360, 26, 4


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/release/mapcompose"))
    parser.add_argument("--out", default=str(ROOT / "docs/basemap-sheet.png"))
    args = parser.parse_args()
    rows = (len(PANELS) + COLUMNS - 1) // COLUMNS
    sheet = Image.new("RGB", (COLUMNS * WIDTH, rows * (HEIGHT + CAPTION)), "white")
    draw = ImageDraw.Draw(sheet)
    with tempfile.TemporaryDirectory() as folder:
        for index, (name, center, zoom, style) in enumerate(PANELS):
            path = pathlib.Path(folder) / f"{index}.png"
            command = [args.binary, "--style", style, "--center", center, "--zoom", str(zoom),
                       "--size", f"{WIDTH}x{HEIGHT}", str(path)]
            subprocess.run(command, check=True)
            x, y = (index % COLUMNS) * WIDTH, (index // COLUMNS) * (HEIGHT + CAPTION)
            sheet.paste(Image.open(path).convert("RGB"), (x, y))
            caption = f"{name}, zoom {zoom}" + (f" ({style})" if style != "default" else "")
            draw.text((x + 8, y + HEIGHT + 6), caption, fill="black")
    sheet.save(args.out, optimize=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
