# mapcompose — build, test, install, demo and benchmark.
SWIFT   ?= swift
PREFIX  ?= /usr/local
BIN     := .build/release/mapcompose
# Release builds are static executables: the Swift runtime, Foundation, the C libraries (Cairo,
# libpng, libjpeg, libwebp, zlib, libdeflate, SQLite, libxml2, libstdc++: see
# scripts/static-link-libs.sh; zlib-ng: see below) and glibc itself are linked from their archives. No loader runs:
# no shared library to map, no symbol to bind, no relocation to apply to the 190 MB binary
# (`mapcompose --version` in about 1.3 ms, a 64x64 render 1.3 ms sooner than with glibc loaded
# dynamically). The executable exports no symbols.
# Compiled code asks for the metadata of a generic type such as Set<String> through its accessor,
# with the conformances it needs (String: Hashable) passed in, rather than by mangled name: from
# a mangled name the runtime finds each conformance by scanning all 9,000 conformance records of
# the binary, about 0.1 ms for each new pair, most of them on the way to the first tile.
# lld (the toolchain's own) places the functions typical renders run together at the start of
# the text (scripts/link-order.txt, written by scripts/link-order.sh): a render maps fewer of the
# executable's pages, about 0.6 ms sooner done at 1024x1024 (see the README).
STATIC_LIBS := $(CURDIR)/.build/static-libs
# zlib-ng (the PNG writer's deflate), built once from its pinned release source by
# scripts/zlib-ng.sh; Package.swift's CZlibNG finds it here through pkg-config.
ZLIB_NG := $(CURDIR)/.build/zlib-ng
export PKG_CONFIG_PATH := $(ZLIB_NG)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
RELEASE := -c release --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -L$(STATIC_LIBS) \
           -Xlinker -no-pie -Xlinker --no-export-dynamic \
           -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
           -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/link-order.txt \
           -Xlinker --no-warn-symbol-ordering
DEMO_CENTER ?= 35,10
DEMO_ZOOM   ?= 2.5

.PHONY: all deps zlib-ng static-libs build test install demo bench bench-peers quickstart clean fuzz fuzz-smoke check-report-browser

all: build

deps:
	bash scripts/install-deps.sh

zlib-ng:
	bash scripts/zlib-ng.sh $(ZLIB_NG)

# Linker scripts that make each -lNAME of a release build link the static archive.
static-libs:
	bash scripts/static-link-libs.sh $(STATIC_LIBS)

build: zlib-ng static-libs
	$(SWIFT) build $(RELEASE) --product mapcompose

# The whole suite: unit, golden (against MapServer references) and CLI tests.
test: zlib-ng
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Opens a failing `mapcompose check` report in headless chromium (installed from Debian if
# missing), screenshots it and checks the page shows the failing case first.
check-report-browser: zlib-ng
	$(SWIFT) build --product mapcompose
	bash scripts/check-report-browser.sh .build/debug/mapcompose

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/mapcompose

# Renders every style in Styles/ into Output/<style>.png.
demo: build
	@for style in Styles/*.yaml; do \
	  name=$$(basename $$style .yaml); \
	  $(BIN) --style $$style --center $(DEMO_CENTER) --zoom $(DEMO_ZOOM) --size 800x500 Output/$$name.png \
	    && echo "Output/$$name.png"; \
	done

# One command on a fresh machine: system packages, release build, a map with the default style.
quickstart: deps build
	$(BIN) --center 51.5,-0.12 --zoom 5 Output/london.png
	@echo "wrote Output/london.png"

# 1024x1024, three MBTiles layers at zoom 6.5: median ms, tiles decoded, peak RSS; the same
# viewport from an ArcGIS compact v2 cache vs an exploded one (ratio); then the whole-process
# time and peak RSS of many-layer styles and of the largest output; then batch throughput
# (500 and 5000 maps of 512x512 from MBTiles) and diff speed on a 2048x2048 pair; then, for
# 1024x1024 and 2048x2048 at zoom 6 from a tile folder, the whole-process time against the
# codec floor (decoding the tiles + encoding the PNG), the output size against libpng's
# default level, `--version` start-up time and PNG encoding time per level against Cairo's.
bench: zlib-ng static-libs
	$(SWIFT) build $(RELEASE) --product MapComposeBench
	$(SWIFT) build $(RELEASE) --product MapComposeCodecFloor
	$(SWIFT) build $(RELEASE) --product mapcompose
	.build/release/MapComposeBench
	.build/release/MapComposeBench codec .build/release/mapcompose .build/release/MapComposeCodecFloor
	bash scripts/bench/stress.sh .build/release/mapcompose
	bash scripts/bench/batch.sh .build/release/mapcompose .build/release/MapComposeBench

# mapcompose (whole process) against py-staticmaps (Cairo) and MapProxy (WMS GetMap), both warm
# and timed in their own Python process, on the same tile folder served over 127.0.0.1: median
# ms at 512², 1024² and 2048², ratios and pixel differences. Peers go into a temporary venv.
bench-peers: build
	bash scripts/bench/peers.sh $(BIN)

# libFuzzer + ASan on the style loader, tile decoder, GeoJSON and MBTiles readers (Fuzz/):
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
