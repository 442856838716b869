import CImageCodecs
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The PNG writer (`ImageEncoder.png`): its files decode, with libpng and with Pillow, to the
/// very pixels Cairo's own writer stores, at every level and shape; its default level stays
/// within 10 % of libpng's default on a real render.
@Suite struct PNGWriterTests {
    static let levels: [PNGCompression] = [.fast, .default, .small, .level(0), .level(6)]

    /// Premultiplied pixels: opaque, translucent (random alpha, colour ≤ alpha) or all clear.
    enum Content: String, CaseIterable {
        case opaque, translucent, transparent
    }

    static func image(width: Int, height: Int, _ content: Content, seed: UInt64 = 1) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var random = SplitMix(state: seed)
        image.withMutablePixels { words, perRow in
            for y in 0..<height {
                for x in 0..<width {
                    let word: UInt32
                    switch content {
                    case .transparent:
                        word = 0
                    case .opaque:
                        // Smooth gradients with some noise, like a map: the filters have work to do.
                        let noise = UInt32(random.next() % 8)
                        word = 0xFF00_0000 | UInt32((x * 3) & 0xFF) << 16 | UInt32((y * 5) & 0xFF) << 8 | ((UInt32(x + y) + noise) & 0xFF)
                    case .translucent:
                        let roll = random.next() % 6
                        let alpha = roll == 0 ? 0 : roll == 1 ? 255 : UInt32(random.next() % 256)
                        func channel() -> UInt32 { alpha == 0 ? 0 : UInt32(random.next() % UInt64(alpha + 1)) }
                        word = alpha << 24 | channel() << 16 | channel() << 8 | channel()
                    }
                    words[y * perRow + x] = word
                }
            }
        }
        return image
    }

    /// Every shape the writer must handle, named for messages.
    static func cases() throws -> [(name: String, image: RasterImage)] {
        var cases: [(String, RasterImage)] = []
        for content in Content.allCases {
            for (width, height) in [(1, 1), (333, 7), (3, 3000), (3000, 3), (257, 255)] {
                cases.append(("\(content.rawValue) \(width)x\(height)", try image(width: width, height: height, content)))
            }
        }
        // Many strips: several threads, dictionaries carried across strip boundaries.
        cases.append(("opaque 1200x900", try image(width: 1200, height: 900, .opaque)))
        cases.append(("translucent 700x800", try image(width: 700, height: 800, .translucent, seed: 7)))
        // Strips that the default keeps at level 4 rather than run-length coding them.
        cases.append(("patterned 1200x900", try patterned()))
        return cases
    }

    @Test func decodesWithLibpngToCairosPixels() throws {
        for (name, image) in try Self.cases() {
            let expected = RGBAImage(image)
            let cairo = try StraightPNGDecoder.decode(try CairoPNGEncoder.encode(image))
            #expect(cairo == expected, "\(name): Cairo's own file")
            for level in Self.levels {
                let decoded = try StraightPNGDecoder.decode(try ImageEncoder.png(image, compression: level))
                #expect(decoded == expected, "\(name), level \(level)")
            }
        }
    }

    @Test func decodesWithPillowToCairosPixels() throws {
        let folder = try TemporaryFolder("mapcompose-png-writer")
        var pairs: [String] = []
        for (index, (_, image)) in try Self.cases().enumerated() {
            let reference = folder.url.appendingPathComponent("\(index)-cairo.png")
            try CairoPNGEncoder.encode(image).write(to: reference)
            for level in Self.levels {
                let ours = folder.url.appendingPathComponent("\(index)-\(level).png")
                try ImageEncoder.png(image, compression: level).write(to: ours)
                pairs.append("\(reference.path)\t\(ours.path)")
            }
        }
        let list = folder.url.appendingPathComponent("pairs.txt")
        try pairs.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let script = """
            import sys
            from PIL import Image
            bad = 0
            for line in open(sys.argv[1]):
                reference, ours = line.rstrip("\\n").split("\\t")
                a, b = Image.open(reference), Image.open(ours)
                b.verify()
                b = Image.open(ours)
                if a.size != b.size or a.convert("RGBA").tobytes() != b.convert("RGBA").tobytes():
                    bad += 1
                    print("differs:", ours)
            print("compared", sum(1 for _ in open(sys.argv[1])), "differ", bad)
            """
        let process = Process()
        // Debian's python3, where python3-pil installs Pillow (a pyenv or venv python3 may lack it).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, list.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 with Pillow (python3-pil) failed: \(printed)")
        #expect(printed.hasSuffix("compared \(pairs.count) differ 0\n"), "\(printed)")
    }

    /// A repeated motif (diagonal stripes of noise) that only matches longer than runs find.
    static func patterned(width: Int = 1200, height: Int = 900) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var random = SplitMix(state: 5)
        let motif = (0..<37).map { _ in UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000 }
        image.withMutablePixels { words, perRow in
            for y in 0..<height {
                for x in 0..<width { words[y * perRow + x] = motif[(x + y * 5) % motif.count] }
            }
        }
        return image
    }

    @Test func runLengthCodingIsUsedOnlyWhereItCompressesAsWell() async throws {
        // A real map: its flat land and sea filter to runs of zeros.
        let viewport = try Viewport(center: LonLat(lon: 10.5, lat: 47.5), zoom: 6, width: 1024, height: 1024)
        let map = try await MapRenderer(style: try StyleLoader.load(nameOrPath: "default")).render(viewport).image
        let mapDefault = try ImageEncoder.png(map), mapLevel4 = try ImageEncoder.png(map, compression: .level(4))
        #expect(mapDefault != mapLevel4, "some strips of the map should be run-length coded")
        // 2 % on each strip's sample, and a little more where a sample does not tell its strip.
        #expect(Double(mapDefault.count) <= 1.05 * Double(mapLevel4.count), "\(mapDefault.count) vs \(mapLevel4.count)")
        #expect(try StraightPNGDecoder.decode(mapDefault) == RGBAImage(map))
        let stripes = try Self.patterned()
        let stripesDefault = try ImageEncoder.png(stripes)
        #expect(stripesDefault == (try ImageEncoder.png(stripes, compression: .level(4))),
                "run-length coding compresses the stripes worse, so level 4 should be kept")
        #expect(try StraightPNGDecoder.decode(stripesDefault) == RGBAImage(stripes))
    }

    @Test func opaqueImagesAreRGBAndOthersRGBA() throws {
        func colourType(_ png: Data) -> UInt8 { png[25] }
        #expect(colourType(try ImageEncoder.png(try Self.image(width: 9, height: 9, .opaque))) == 2)
        #expect(colourType(try ImageEncoder.png(try Self.image(width: 9, height: 9, .translucent))) == 6)
        #expect(colourType(try ImageEncoder.png(try Self.image(width: 9, height: 9, .transparent))) == 6)
        // One pixel short of opaque anywhere (the first, one inside, the last) makes it RGBA.
        for (x, y) in [(0, 0), (20, 5), (36, 10)] {
            let image = try Self.image(width: 37, height: 11, .opaque)
            image.withMutablePixels { words, perRow in words[y * perRow + x] &= 0xFEFF_FFFF }
            #expect(colourType(try ImageEncoder.png(image)) == 6, "translucent pixel at \(x),\(y)")
        }
    }

    /// Opacity is guessed from every eighth row and checked on every row as it is written: a
    /// pixel short of opaque on a row the guess skipped, in any strip, still gives RGBA with
    /// the very pixels, at every level.
    @Test func aPixelShortOfOpaqueBetweenTheSampledRowsGivesRGBA() throws {
        func colourType(_ png: Data) -> UInt8 { png[25] }
        for (x, y, word) in [(5, 803, UInt32(0x8040_2010)), (1199, 1, 0), (600, 453, 0xFE10_2030), (0, 899, 0x0101_0101)] {
            let image = try Self.image(width: 1200, height: 900, .opaque)
            image.withMutablePixels { words, perRow in words[y * perRow + x] = word }
            for level in Self.levels {
                let png = try ImageEncoder.png(image, compression: level)
                #expect(colourType(png) == 6, "pixel at \(x),\(y), level \(level)")
                #expect(try StraightPNGDecoder.decode(png) == RGBAImage(image), "pixel at \(x),\(y), level \(level)")
            }
        }
    }

    @Test func theDefaultLevelStaysWithinTenPercentOfLibpngOnARender() async throws {
        let style = try StyleLoader.load(nameOrPath: "default")
        for zoom in [3.0, 6.0] {
            let viewport = try Viewport(center: LonLat(lon: 10.5, lat: 47.5), zoom: zoom, width: 1024, height: 1024)
            let image = try await MapRenderer(style: style).render(viewport).image
            let ours = try ImageEncoder.png(image).count, libpng = try CairoPNGEncoder.encode(image).count
            #expect(Double(ours) <= 1.10 * Double(libpng), "zoom \(zoom): \(ours) bytes against libpng's \(libpng)")
            let small = try ImageEncoder.png(image, compression: .small).count
            let fast = try ImageEncoder.png(image, compression: .fast).count
            #expect(small <= ours && ours <= fast, "zoom \(zoom): small \(small), default \(ours), fast \(fast)")
        }
    }

    @Test func textChunksGoIntoItsFiles() throws {
        let png = try ImageEncoder.png(try Self.image(width: 5, height: 4, .translucent), text: [("crs", "EPSG:3857")])
        #expect(png.range(of: Data("tEXtcrs\0EPSG:3857".utf8)) != nil)
        #expect(try StraightPNGDecoder.decode(png).width == 5)
    }

    @Test func badArgumentsAreAnErrorWithAMessage() {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>? = UnsafeMutablePointer(bitPattern: 1)
        var length = 7
        let pixels = [UInt8](repeating: 0, count: 16)
        let status = mc_png_encode_argb32(pixels, 2, 2, 8, 10, 0, 1, nil, nil, 0, &output, &length, &message, message.count)
        #expect(status != 0 && output == nil && length == 0)
        #expect(String(messageBuffer: message).contains("level 10"))
        output = UnsafeMutablePointer(bitPattern: 1)
        let missingChunks = mc_png_encode_argb32(pixels, 2, 2, 8, 6, 0, 1, nil, nil, 12, &output, &length, &message, message.count)
        #expect(missingChunks != 0 && output == nil, "a length without chunk bytes is refused")
        #expect(String(messageBuffer: message).contains("12 bytes of header chunks"))
    }

    @Test func compressionNamesAndLevels() {
        #expect(PNGCompression("fast") == .fast && PNGCompression("SMALL") == .small && PNGCompression("default") == .default)
        #expect(PNGCompression("0") == .level(0) && PNGCompression("9")?.zlibLevel == 9)
        #expect(PNGCompression("10") == nil && PNGCompression("-1") == nil && PNGCompression("quick") == nil)
        #expect(PNGCompression.fast.zlibLevel < PNGCompression.default.zlibLevel)
        #expect(PNGCompression.default.zlibLevel < PNGCompression.small.zlibLevel)
    }
}
