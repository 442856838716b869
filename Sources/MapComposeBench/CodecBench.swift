import Foundation
import MapComposeCore
#if canImport(Glibc)
import Glibc
#endif

/// `MapComposeBench codec MAPCOMPOSE`: for 1024² and 2048² at zoom 6 from a folder of PNG
/// tiles, the whole-process median time of `mapcompose`, its codec floor (decoding the tiles
/// the view needs, on all cores, plus encoding the output with the PNG writer it uses) and the
/// ratio of the two; the CPU time of both, and how much CPU beyond the floor 1.3 × the floor
/// leaves on this machine's cores; the output's size next to libpng's default-level encoding of the same
/// pixels (Cairo's writer); `mapcompose --version` start-up time; and the PNG writer's time
/// and size per level against `cairo_surface_write_to_png`. With `codecFloor` (the
/// MapComposeCodecFloor executable), also the codec floor of a whole process: one that starts,
/// decodes the same tiles on all cores, encodes the same output with the same writer and
/// writes it, run in turn with the render; the render's ratio to it (the goal, ≤ 1.3), and its
/// own ratio to the in-process floor.
enum CodecBench {
    static let center = LonLat(lon: 10.5, lat: 47.5)
    static let zoom = 6.0
    static let sides = [1024, 2048]

    static func run(mapcompose: String, codecFloor: String? = nil) async throws {
        let runs = max(3, Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "") ?? 15)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapcompose-codec-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let largest = try Viewport(center: center, zoom: zoom, width: sides.max()!, height: sides.max()!)
        let tileCount = try await writeTiles(covering: largest.extent, level: Int(zoom), into: folder.appendingPathComponent("tiles"))
        let styleFile = folder.appendingPathComponent("tiles.yaml")
        try "layers: [{id: tiles, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}]\n".write(to: styleFile, atomically: true, encoding: .utf8)
        let style = try StyleLoader.load(nameOrPath: styleFile.path)

        var load = [Double](repeating: 0, count: 3)
        getloadavg(&load, 3)
        print("mapcompose codec bench: zoom 6 from a folder of \(tileCount) PNG tiles (256 px, the built-in style), "
              + "\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(String(format: "%.2f", load[0])) at start, "
              + "medians of \(runs) runs")
        let version = try ProcessTimer.times(mapcompose, ["--version"], runs: max(runs, 50))
        print("")
        print("size       render ms  floor ms (decode + encode)  render/floor (in-process)  file bytes  libpng bytes  file/libpng (goal ≤ 1.10)")
        var images: [(Int, RasterImage)] = []
        var renderMedians: [String] = []
        var cpuLines: [String] = [], processLines: [String] = []
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for side in sides {
            let viewport = try Viewport(center: center, zoom: zoom, width: side, height: side)
            let output = folder.appendingPathComponent("out-\(side).png")
            let tiles = try tileFiles(for: viewport, in: folder.appendingPathComponent("tiles"))
            let renderArguments = ["--style", styleFile.path, "--center", "\(center.lat),\(center.lon)", "--zoom", "\(Int(zoom))",
                                   "--size", "\(side)x\(side)", "--no-attribution", output.path]
            let renders: [(wall: Double, cpu: Double)]
            var processFloor: ProcessFloor?
            if let codecFloor {
                (renders, processFloor) = try timeInTurn(mapcompose, renderArguments, codecFloor: codecFloor, output: output,
                                                         tiles: tiles, folder: folder, side: side, runs: runs)
            } else {
                renders = try ProcessTimer.inOrder(mapcompose, renderArguments, runs: runs)
            }
            let render = median(renders.map(\.wall)), renderCPU = median(renders.map(\.cpu))
            renderMedians.append("\(side)x\(side) median \(ms(render)) ms, min \(ms(renders.map(\.wall).min()!)) ms")
            let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
            images.append((side, image))
            let decode = try median((0..<runs).map { _ in try time { try decodeAll(tiles) } })
            let encode = try median((0..<runs).map { _ in try time { _ = try ImageEncoder.png(image) } })
            let floor = decode + encode
            let floorCPU = try median((0..<runs).map { _ in
                try ProcessTimer.cpu { try decodeAll(tiles); _ = try ImageEncoder.png(image) }
            })
            cpuLines.append("\(side)x\(side)".padding(toLength: 11, withPad: " ", startingAt: 0)
                            + "\(ms(renderCPU))".leftPadded(12) + "\(ms(floorCPU))".leftPadded(11)
                            + "\(ms(renderCPU - floorCPU))".leftPadded(19)
                            + "\(ms(renderCPU / Double(cores)))".leftPadded(33)
                            + "\(ms(1.3 * floor * Double(cores) - floorCPU))".leftPadded(36))
            if let processFloor {
                processLines.append("\(side)x\(side)".padding(toLength: 11, withPad: " ", startingAt: 0)
                                    + "\(ms(render))".leftPadded(9) + "\(ms(processFloor.median))".leftPadded(18)
                                    + String(format: "%.2f", processFloor.renderRatio).leftPadded(38)
                                    + String(format: "%.2f", processFloor.median / floor).leftPadded(33))
            }
            let fileBytes = try Data(contentsOf: output).count
            let libpngBytes = try CairoPNGEncoder.encode(image).count
            print("\(side)x\(side)".padding(toLength: 11, withPad: " ", startingAt: 0)
                  + "\(ms(render))".leftPadded(9)
                  + "\(ms(floor)) (\(ms(decode)) + \(ms(encode)), \(tiles.count) tiles)".leftPadded(28)
                  + String(format: "%.2f", render / floor).leftPadded(27)
                  + "\(fileBytes)".leftPadded(12) + "\(libpngBytes)".leftPadded(14)
                  + String(format: "%.3f", Double(fileBytes) / Double(libpngBytes)).leftPadded(27))
        }
        print("")
        print("start-up, `mapcompose --version` as a whole process: median \(ms(median(version))) ms, min \(ms(version[0])) ms (goal ≤ 10)")
        print("single render as a whole process (one PNG tile layer, zoom 6, PNG written): " + renderMedians.joined(separator: "; "))
        print("")
        print("CPU time (user + system, all threads), medians in ms: a render on \(cores) cores takes at least its CPU / \(cores)")
        print("size       render CPU  floor CPU  beyond the floor  least render wall (CPU / cores)  room beyond the floor at 1.3 × floor")
        cpuLines.forEach { print($0) }
        if !processLines.isEmpty {
            print("")
            print("Codec floor of a whole process (MapComposeCodecFloor: start, decode the tiles on all cores, encode the same")
            print("output with the same writer, write it; the time it takes to get the output's pixels is taken off), run in turn")
            print("with the render; medians in ms, and of the ratios run by run. The last column is that codec-only process against")
            print("the warm floor above: where it is over 1.3, no whole process could come within 1.3 of the warm floor.")
            print("size       render ms  process floor ms  render/process floor (goal ≤ 1.3)  process floor/warm floor")
            processLines.forEach { print($0) }
        }
        print("")
        print("PNG encoding of the same renders, median ms (bytes relative to cairo_surface_write_to_png):")
        let levels: [PNGCompression] = [.fast, .default, .small]
        print("size       cairo (libpng 6)" + levels.map { "\($0) (zlib \($0.zlibLevel))".leftPadded(24) }.joined())
        for (side, image) in images {
            let cairoBytes = try CairoPNGEncoder.encode(image).count
            let cairo = try median((0..<runs).map { _ in try time { _ = try CairoPNGEncoder.encode(image) } })
            var line = "\(side)x\(side)".padding(toLength: 11, withPad: " ", startingAt: 0) + "\(ms(cairo)) ms".leftPadded(16)
            for level in levels {
                let bytes = try ImageEncoder.png(image, compression: level).count
                let took = try median((0..<runs).map { _ in try time { _ = try ImageEncoder.png(image, compression: level) } })
                line += "\(ms(took)) ms (\(String(format: "%.3f", Double(bytes) / Double(cairoBytes))))".leftPadded(24)
            }
            print(line)
        }
    }

    /// The whole-process codec floor of one size: the median time of a `codecFloor` run on the
    /// render's `output` and the view's `tiles`, less the time it took to decode `output` (which
    /// it appends to a log), and the median of the render's ratio to it, run by run.
    struct ProcessFloor {
        let median: Double
        let renderRatio: Double
    }

    /// `runs` renders and `runs` runs of `codecFloor`, in turn (render, floor, render, …), so that
    /// both see the machine in the same state: its speed drifts from minute to minute.
    static func timeInTurn(_ mapcompose: String, _ renderArguments: [String], codecFloor: String, output: URL, tiles: [URL],
                           folder: URL, side: Int, runs: Int) throws -> ([(wall: Double, cpu: Double)], ProcessFloor) {
        let log = folder.appendingPathComponent("floor-load-\(side).log")
        try Data().write(to: log)
        let floorArguments = [output.path, folder.appendingPathComponent("floor-\(side).png").path, log.path] + tiles.map(\.path)
        // The render's output is the floor's input: the render's warm-up run comes first.
        let (renders, floors) = try ProcessTimer.inTurn((mapcompose, renderArguments), (codecFloor, floorArguments), runs: runs)
        let loads = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        guard loads.count == runs + 1 else {
            throw ProcessTimer.Failure(description: "\(codecFloor) logged \(loads.count) load times for \(runs + 1) runs")
        }
        // The first line is the warm-up's.
        let floorTimes = zip(floors, loads.dropFirst()).map { $0.wall - $1 }
        let ratios = zip(renders, floorTimes).map { $0.wall / $1 }
        return (renders, ProcessFloor(median: median(floorTimes), renderRatio: median(ratios)))
    }

    /// Opaque 256-px PNG tiles of the built-in style covering `area` (plus one tile around it),
    /// written as `{z}/{x}/{y}.png`; returns how many.
    static func writeTiles(covering area: MetersRect, level: Int, into folder: URL) async throws -> Int {
        guard let range = TileMatrix.webMercator().covering(area, level: level) else { return 0 }
        let style = try StyleLoader.load(nameOrPath: "default")
        let side = 1 << level
        var count = 0
        for x in max(0, range.columns.lowerBound - 1)...min(side - 1, range.columns.upperBound + 1) {
            let column = folder.appendingPathComponent("\(level)/\(x)")
            try FileManager.default.createDirectory(at: column, withIntermediateDirectories: true)
            for y in max(0, range.rows.lowerBound - 1)...min(side - 1, range.rows.upperBound + 1) {
                let tileCenter = WebMercator.lonLat(from: WorldPixel(x: (Double(x) + 0.5) * 256, y: (Double(y) + 0.5) * 256),
                                                    zoom: Double(level))
                let viewport = try Viewport(center: tileCenter, zoom: Double(level), width: 256, height: 256)
                let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
                try CairoPNGEncoder.encode(image).write(to: column.appendingPathComponent("\(y).png"))
                count += 1
            }
        }
        return count
    }

    /// The tile files a view at `viewport` draws.
    static func tileFiles(for viewport: Viewport, in folder: URL) throws -> [URL] {
        let level = Int(zoom)
        guard let range = TileMatrix.webMercator().covering(viewport.extent, level: level) else { return [] }
        return range.rows.flatMap { y in
            range.columns.map { x in folder.appendingPathComponent("\(level)/\(x)/\(y).png") }
        }
    }

    /// Reads and decodes every tile, on all cores.
    static func decodeAll(_ files: [URL]) throws {
        let failures = FailureBox()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            do {
                _ = try TileDecoder.decode(try Data(contentsOf: files[index]))
            } catch {
                failures.record(error)
            }
        }
        if let error = failures.first { throw error }
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let started = ContinuousClock.now
        try body()
        return started.duration(to: .now).milliseconds
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func ms(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// The first error of concurrent work.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []

    func record(_ error: Error) { lock.withLock { errors.append(error) } }

    var first: Error? { lock.withLock { errors.first } }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
