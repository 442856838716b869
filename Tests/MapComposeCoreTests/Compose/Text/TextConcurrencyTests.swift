import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Text drawn on many threads at once (as by `batch --jobs` and the drawing helpers) measures
/// and draws exactly as it does on one thread.
@Suite struct TextConcurrencyTests {
    /// What one thread makes of a name: its extents and the pixels of it drawn with a halo.
    struct Drawn: Equatable {
        let extents: TextExtents
        let pixels: [UInt32]
    }

    static func draw(_ name: String, bold: Bool) throws -> Drawn {
        let image = try RasterImage(width: 360, height: 48, color: RGBA(r: 170, g: 211, b: 223))
        let context = try DrawingContext(image)
        var measured: TextExtents?
        context.text(name, font: TextFont(size: 22, bold: bold), color: RGBA(r: 34, g: 34, b: 34), halo: .white) { extents in
            measured = extents
            return (10, 34)
        }
        try context.finish("draw text")
        let pixels = image.withPixels { words, perRow in
            (0..<image.height).flatMap { row in words[(row * perRow)..<(row * perRow + image.width)] }
        }
        return Drawn(extents: try #require(measured), pixels: pixels)
    }

    @Test func threadsDrawingAtOnceGiveWhatOneThreadGives() throws {
        let names = TextScriptTests.samples.map(\.name)
        let cases = names.flatMap { name in [(name, false), (name, true)] }
        let serial = try cases.map { try Self.draw($0.0, bold: $0.1) }
        let threads = 12, rounds = 3
        let results = Results(count: threads)
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            // Threads of their own, not the test's pool, all shaping and drawing at once.
            let thread = Thread {
                defer { group.leave() }
                var mine: [Drawn] = []
                for round in 0..<rounds {
                    for offset in cases.indices {
                        let (name, bold) = cases[(offset + index + round) % cases.count]
                        do { mine.append(try Self.draw(name, bold: bold)) } catch { results.fail("\(error)") }
                    }
                }
                results.set(index, mine)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        #expect(group.wait(timeout: .now() + 300) == .success, "every thread finished")
        #expect(results.failures.isEmpty, "\(results.failures)")
        for index in 0..<threads {
            let mine = results.get(index)
            #expect(mine.count == cases.count * rounds, "thread \(index) drew every name")
            for (position, drawn) in mine.enumerated() {
                let expected = serial[(position % cases.count + index + position / cases.count) % cases.count]
                #expect(drawn == expected, "thread \(index), drawing \(position) is as on one thread")
            }
        }
    }

    /// Results handed back by the threads.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var drawn: [[Drawn]]
        private(set) var failures: [String] = []

        init(count: Int) { drawn = Array(repeating: [], count: count) }
        func set(_ index: Int, _ value: [Drawn]) { lock.withLock { drawn[index] = value } }
        func get(_ index: Int) -> [Drawn] { lock.withLock { drawn[index] } }
        func fail(_ message: String) { lock.withLock { failures.append(message) } }
    }
}
