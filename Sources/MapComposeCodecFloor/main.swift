// `MapComposeCodecFloor PIXELS.png OUT.png LOAD-LOG TILE...`: a whole process doing only the
// codec work of a render, for `make bench` (CodecBench): it decodes the tiles on all cores
// and encodes the image of PIXELS.png with the PNG writer mapcompose uses, into OUT.png.
// Getting that image (decoding PIXELS.png) is not codec work of the render: the milliseconds
// it took are appended to LOAD-LOG, for the bench to take off the process's time.
import Foundation
import MapComposeCore

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    FileHandle.standardError.write(Data("usage: MapComposeCodecFloor PIXELS.png OUT.png LOAD-LOG TILE...\n".utf8))
    exit(2)
}
do {
    let loading = ContinuousClock.now
    let image = try TileDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    let loaded = loading.duration(to: .now)
    let tiles = Array(arguments[4...])
    let failed = NSLock()
    nonisolated(unsafe) var failure: String?
    DispatchQueue.concurrentPerform(iterations: tiles.count) { index in
        do {
            _ = try TileDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: tiles[index])))
        } catch {
            failed.withLock { failure = failure ?? "\(tiles[index]): \(error)" }
        }
    }
    if let failure { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: failure]) }
    try ImageEncoder.png(image).write(to: URL(fileURLWithPath: arguments[2]))
    let milliseconds = Double(loaded.components.seconds) * 1000 + Double(loaded.components.attoseconds) / 1e15
    let log = try FileHandle(forWritingTo: URL(fileURLWithPath: arguments[3]))
    log.seekToEndOfFile()
    log.write(Data("\(milliseconds)\n".utf8))
    try log.close()
} catch {
    FileHandle.standardError.write(Data("MapComposeCodecFloor: \(error)\n".utf8))
    exit(1)
}
