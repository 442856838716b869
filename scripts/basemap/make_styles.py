#!/usr/bin/env python3
"""Writes Styles/default.json and Styles/default-dark.json: the built-in `default` and
`default-dark` MapLibre styles over the world basemap (Protomaps basemaps v4 schema: earth,
water, landcover, landuse, roads, buildings, boundaries, places). One layer list, two palettes.
The source URL `mapcompose://basemap` is the installed basemap (docs/basemap.md); a user's own
Protomaps extract given with --basemap FILE is drawn by the same layers, streets included.
Run from the repository root, then scripts/embed-default-style.py."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

PALETTES = {
    "default": {
        "water": "#a8cbe0", "earth": "#f3f0e8", "urban": "#ebe4da", "park": "#d9e8c9", "forest": "#cfe2bd",
        "glacier": "#fbfdff", "building": "#ddd5cb", "river": "#a8cbe0",
        "highway": "#f5c266", "highway_casing": "#d69d4a", "major": "#ffffff", "major_casing": "#cfc6ba",
        "minor": "#ffffff", "minor_casing": "#ddd6cc", "path": "#b9ae9f",
        "border": "#9d86a8", "region": "#c2b6c8", "label": "#3b3631", "label_halo": "#ffffffe0",
        "country_label": "#6b5c74", "water_label": "#5d89a8",
    },
    "default-dark": {
        "water": "#1b2a38", "earth": "#2b2d30", "urban": "#33353a", "park": "#2c3a2e", "forest": "#29362a",
        "glacier": "#3a4048", "building": "#3a3c41", "river": "#1b2a38",
        "highway": "#8a6a3a", "highway_casing": "#5e4726", "major": "#55585e", "major_casing": "#3c3e43",
        "minor": "#46494e", "minor_casing": "#36383c", "path": "#5a5d62",
        "border": "#8a7a94", "region": "#5d5663", "label": "#e6e2dc", "label_halo": "#1d1f22e0",
        "country_label": "#c5b6d0", "water_label": "#7fa6c4",
    },
}

ZOOM = ["zoom"]


def interpolate(*stops, base=1.4):
    return ["interpolate", ["exponential", base], ZOOM, *stops]


def kind(*kinds):
    return ["in", ["get", "kind"], ["literal", list(kinds)]]


def shown():
    """Features whose `min_zoom` is reached (features without one always show)."""
    return ["<=", ["coalesce", ["get", "min_zoom"], 0], ZOOM]


# The label: the local name, with the Latin-script (English) name under it where it differs.
LABEL = ["case",
         ["all", ["has", "name:en"], ["!=", ["get", "name:en"], ["coalesce", ["get", "name"], ""]]],
         ["concat", ["coalesce", ["get", "name"], ""], "\n", ["get", "name:en"]],
         ["coalesce", ["get", "name"], ""]]

FONT = ["Noto Sans Regular"]


def layers(c):
    fill = lambda id_, layer, color, flt=None, **extra: {  # noqa: E731
        "id": id_, "type": "fill", "source": "basemap", "source-layer": layer,
        **({"filter": flt} if flt else {}), "paint": {"fill-color": color, **extra}}
    road = lambda id_, kinds, color, width, minzoom, **extra: {  # noqa: E731
        "id": id_, "type": "line", "source": "basemap", "source-layer": "roads", "minzoom": minzoom,
        "filter": ["all", kind(*kinds), ["!", ["to-boolean", ["get", "is_tunnel"]]]],
        "layout": {"line-join": "round", "line-cap": "round"},
        "paint": {"line-color": color, "line-width": width, **extra}}
    return [
        {"id": "water-background", "type": "background", "paint": {"background-color": c["water"]}},
        fill("earth", "earth", c["earth"]),
        fill("landcover-urban", "landcover", c["urban"], kind("urban_area")),
        fill("landcover-forest", "landcover", c["forest"], kind("forest")),
        fill("landcover-glacier", "landcover", c["glacier"], kind("glacier")),
        fill("landuse-urban", "landuse", c["urban"], kind("residential", "neighbourhood", "industrial", "commercial")),
        fill("landuse-park", "landuse", c["park"], kind("park", "nature_reserve", "forest", "wood", "grass", "cemetery", "golf_course")),
        fill("water", "water", c["water"], ["==", ["geometry-type"], "Polygon"]),
        {"id": "rivers", "type": "line", "source": "basemap", "source-layer": "water", "minzoom": 3,
         "filter": ["all", ["==", ["geometry-type"], "LineString"], kind("river", "canal", "stream")],
         "layout": {"line-join": "round", "line-cap": "round"},
         "paint": {"line-color": c["river"],
                   "line-width": interpolate(3, 0.4, 8, 1.2, 12, 3, 16, 8)}},
        fill("buildings", "buildings", c["building"], None),
        road("roads-path", ["path"], c["path"], interpolate(13, 0.5, 16, 1.5), 13, **{"line-dasharray": [2, 1.5]}),
        road("roads-minor-casing", ["minor_road"], c["minor_casing"], interpolate(11, 0.6, 13, 2.4, 16, 9), 11),
        road("roads-major-casing", ["major_road"], c["major_casing"], interpolate(7, 0.8, 12, 3.4, 16, 14), 7),
        road("roads-highway-casing", ["highway"], c["highway_casing"], interpolate(5, 1, 12, 4.4, 16, 16), 5),
        road("roads-minor", ["minor_road"], c["minor"], interpolate(11, 0.3, 13, 1.4, 16, 7), 11),
        road("roads-major", ["major_road"], c["major"], interpolate(7, 0.5, 12, 2.2, 16, 11), 7),
        road("roads-highway", ["highway"], c["highway"], interpolate(5, 0.6, 12, 3, 16, 13), 5),
        {"id": "boundaries-region", "type": "line", "source": "basemap", "source-layer": "boundaries", "minzoom": 3,
         "filter": kind("region"),
         "paint": {"line-color": c["region"], "line-dasharray": [3, 2], "line-width": interpolate(3, 0.5, 10, 1.2)}},
        {"id": "boundaries-country", "type": "line", "source": "basemap", "source-layer": "boundaries",
         "filter": kind("country"),
         "layout": {"line-join": "round"},
         "paint": {"line-color": c["border"], "line-width": interpolate(0, 0.6, 6, 1.4, 12, 2.5)}},
        {"id": "roads-labels", "type": "symbol", "source": "basemap", "source-layer": "roads", "minzoom": 13,
         "filter": ["all", kind("highway", "major_road", "minor_road"), ["has", "name"]],
         "layout": {"symbol-placement": "line", "text-field": ["get", "name"], "text-font": FONT, "text-size": 11},
         "paint": {"text-color": c["label"], "text-halo-color": c["label_halo"], "text-halo-width": 1.5}},
        {"id": "places-locality", "type": "symbol", "source": "basemap", "source-layer": "places",
         # Names of more than 40 characters (housing estates, compounds) would cross the map.
         "filter": ["all", kind("locality", "neighbourhood", "macrohood"), shown(),
                    ["<=", ["length", ["coalesce", ["get", "name:en"], ["get", "name"], ""]], 40]],
         "layout": {"text-field": LABEL, "text-font": FONT,
                    "symbol-sort-key": ["-", 0, ["coalesce", ["get", "population"], 0]],
                    # Three sizes, not a continuous scale: each size is one font set to load.
                    "text-size": ["step", ["coalesce", ["get", "population_rank"], 0], 11, 9, 13, 12, 16],
                    "text-padding": 6},
         "paint": {"text-color": c["label"], "text-halo-color": c["label_halo"], "text-halo-width": 1.6}},
        {"id": "places-country", "type": "symbol", "source": "basemap", "source-layer": "places", "maxzoom": 7,
         "filter": kind("country"),
         "layout": {"text-field": LABEL, "text-font": FONT, "text-size": interpolate(1, 10, 6, 16),
                    "symbol-sort-key": ["-", 0, ["coalesce", ["get", "population"], 0]], "text-padding": 8},
         "paint": {"text-color": c["country_label"], "text-halo-color": c["label_halo"], "text-halo-width": 1.8}},
    ]


def style(name, palette):
    return {
        "version": 8,
        "name": name,
        "metadata": {"about": f"mapcompose's built-in '{name}' style over the world basemap (docs/basemap.md); "
                              "written by scripts/basemap/make_styles.py"},
        "sources": {"basemap": {"type": "vector", "url": "mapcompose://basemap"}},
        "layers": layers(palette),
    }


def main():
    for name, palette in PALETTES.items():
        path = ROOT / "Styles" / f"{name}.json"
        path.write_text(json.dumps(style(name, palette), indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
