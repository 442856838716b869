// swift-tools-version:6.0
// libFuzzer targets for mapcompose's input parsers. Not part of the main package: they link
// libFuzzer, so they build only with `-sanitize=fuzzer,address` (see run.sh, `make fuzz`).
// Each target's `LLVMFuzzerTestOneInput` is handed to `LLVMFuzzerRunDriver` from its
// main.swift: SwiftPM defines an executable's `main` as the module's top-level code, so
// `-parse-as-library` with libFuzzer's own `main` does not link.
import PackageDescription

let fuzzTargets = ["FuzzStyle", "FuzzTileDecoder", "FuzzGeoJSON", "FuzzMBTiles", "FuzzArcGISBundle", "FuzzArcGISConf", "FuzzManifest",
                   "FuzzXML", "FuzzVectorTile", "FuzzPMTiles", "FuzzMapLibreStyle", "FuzzExpression"]

let package = Package(
    name: "mapcompose-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "mapcompose", path: ".."),
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", .product(name: "MapComposeCore", package: "mapcompose")]
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "MapComposeCore", package: "mapcompose"),
                           .product(name: "MapLibreStyleSpec", package: "mapcompose")]
        )
    }
)
