// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mapcompose",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mapcompose", targets: ["MapComposeCLI"]),
        .executable(name: "mapcompose-serve", targets: ["MapComposeServe"]),
        .library(name: "MapComposeCore", targets: ["MapComposeCore"]),
        .library(name: "MapComposeServer", targets: ["MapComposeServer"]),
        .library(name: "MapLibreStyleSpec", targets: ["MapLibreStyleSpec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // Pango with its Cairo and fontconfig back end (HarfBuzz shaping, fribidi): all text,
        // see Sources/MapComposeCore/Compose/Text. Loaded on first text by CPangoLoader; its
        // headers are read by the test that checks CPangoLoader's copies of Pango's structures.
        .systemLibrary(
            name: "CPango",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]
        ),
        .target(name: "CPangoLoader", dependencies: ["CLibraryLoader"], linkerSettings: [.linkedLibrary("fontconfig")]),
        // HarfBuzz alone, loaded on the first plain line of text (text Pango would set as one run
        // of one font): see Sources/MapComposeCore/Compose/Text/PlainTextLine.swift.
        .target(name: "CHarfBuzzLoader", dependencies: ["CLibraryLoader"], linkerSettings: [.linkedLibrary("fontconfig")]),
        // dlopen on first use, shared by the loaders of Pango and libxml2.
        .target(name: "CLibraryLoader"),
        // libcurl (Debian's, OpenSSL flavour), loaded on first use: the HTTP client's transfers,
        // TLS from the system. Its header comes from libcurl4-openssl-dev.
        .target(name: "CCurl"),
        // libxml2: the streaming reader behind XMLTreeElement (its limits and errors set by the
        // caller), loaded on the first document by CLibXML2Loader; its headers are read by the
        // test that checks CLibXML2Loader's copies of libxml2's types.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "CLibXML2Loader", dependencies: ["CLibraryLoader"]),
        // zlib-ng, the PNG writer's deflate, found through pkg-config (zlib-ng.pc). Debian 12 does
        // not package it: `make` builds it into .build/zlib-ng and puts that on PKG_CONFIG_PATH
        // (scripts/zlib-ng.sh).
        .systemLibrary(
            name: "CZlibNG",
            pkgConfig: "zlib-ng"
        ),
        // zlib: inflating gzip'd vector tiles and PMTiles directories.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Memory for pixels: huge pages for large images, pooled tile-sized buffers.
        .target(name: "CPixelMemory"),
        // The CPUs the process may run on.
        .target(name: "CCPUAffinity"),
        // Bilinear resampling of images moved by a fraction of a pixel, in SSE2/AVX2.
        .target(name: "CResampling"),
        // Antialiased coverage of thin stroked lines in an 8-bit mask (MapLibre lines).
        .target(name: "CLineCoverage"),
        // PNG (decoder with a fast path, parallel writer), JPEG and WebP codecs.
        .target(
            name: "CImageCodecs",
            dependencies: ["CZlibNG", "CPixelMemory", "CLibraryLoader"],
            // libjpeg and libwebp are loaded on first use (jpeg_library.h, webp_library.h).
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        // The MapLibre style expression language (version 8): JSON values, parsing with type
        // checking, evaluation, legacy filters and functions. Foundation only.
        .target(name: "MapLibreStyleSpec"),
        // Runs maplibre-style-spec's expression conformance suite from a checkout named by
        // MAPLIBRE_STYLE_SPEC (docs/maplibre-expressions.md).
        .executableTarget(
            name: "MapLibreConformance",
            dependencies: ["MapLibreStyleSpec"]
        ),
        .target(
            name: "MapComposeCore",
            dependencies: [
                "MapLibreStyleSpec",
                "CCairo",
                "CPangoLoader",
                "CHarfBuzzLoader",
                "CCurl",
                "CImageCodecs",
                "CPixelMemory",
                "CCPUAffinity",
                "CResampling",
                "CLineCoverage",
                "CLibXML2Loader",
                "CZlib",
                .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        // `mapcompose serve` (Hummingbird): a target of its own, so MapComposeCore's users and the
        // CLI's other commands never start NIO.
        .target(
            name: "MapComposeServer",
            dependencies: [
                "MapComposeCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // What the two programs share: errors and messages, logging and signals, cache options.
        .target(
            name: "MapComposeCommandLine",
            dependencies: [
                "MapComposeCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "MapComposeCLI",
            dependencies: [
                "MapComposeCore",
                "MapComposeCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `mapcompose serve`: the server, a program of its own so the tool does not load it.
        .executableTarget(
            name: "MapComposeServe",
            dependencies: [
                "MapComposeCore",
                "MapComposeCommandLine",
                "MapComposeServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "MapComposeBench",
            dependencies: ["MapComposeCore", "MapComposeTestSupport"]
        ),
        .executableTarget(
            name: "MapComposeCodecFloor",
            dependencies: ["MapComposeCore"]
        ),
        .target(
            name: "MapComposeTestSupport",
            dependencies: [
                "MapComposeCore",
                "CCairo",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/MapComposeTestSupport"
        ),
        .testTarget(
            name: "MapComposeCoreTests",
            dependencies: ["MapComposeCore", "MapComposeTestSupport", "CZlib", "CPango", "CPangoLoader", "CHarfBuzzLoader", "CLibXML2", "CLibXML2Loader"]
        ),
        .testTarget(
            name: "MapLibreStyleSpecTests",
            dependencies: ["MapLibreStyleSpec"]
        ),
        .testTarget(
            name: "MapComposeGoldenTests",
            dependencies: ["MapComposeCore", "MapComposeTestSupport"],
            // The golden suite's cases, read from the repository by StyleGoldenTests.
            exclude: ["Suite"]
        ),
        .testTarget(
            name: "MapComposeCLITests",
            dependencies: ["MapComposeCLI", "MapComposeTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "MapComposeCommandLineTests",
            dependencies: ["MapComposeCommandLine"]
        ),
        .testTarget(
            name: "MapComposeServerTests",
            dependencies: ["MapComposeCLI", "MapComposeServe", "MapComposeServer", "MapComposeTestSupport"]
        ),
    ]
)
