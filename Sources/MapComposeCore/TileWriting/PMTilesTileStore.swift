import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The distinct tile contents of an archive being written, each stored once in a scratch file
/// (created beside the archive and unlinked at once, so nothing is left behind however the
/// process ends): a content seen before, by hash and then byte for byte, gets its first copy's
/// number. Not thread-safe; `PMTilesWriter` serialises calls.
final class PMTilesTileStore {
    /// Where a content lies in the scratch file.
    struct Content {
        let offset: UInt64
        let length: Int
    }

    private struct Key: Hashable {
        let length: Int
        let hash: Int
    }

    private let descriptor: Int32
    private var size: UInt64 = 0
    private(set) var contents: [Content] = []
    private var byKey: [Key: [Int]] = [:]

    /// Creates the scratch file in `folder`, named after `name`; throws the system's reason.
    init(folder: String, name: String) throws(PMTilesWriterFailure) {
        let path = OutputPath.joined(folder, ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tiles.tmp")
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw PMTilesWriterFailure("cannot create a scratch file in '\(folder)': \(DescriptorWriter.reason(errno))")
        }
        unlink(path)
    }

    deinit {
        close(descriptor)
    }

    /// The hash `store` expects for `data` (computed before taking the writer's lock).
    static func hash(_ data: [UInt8]) -> Int {
        var hasher = Hasher()
        data.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// The number of `data`'s content: one stored before with the same bytes, or a new one.
    func store(_ data: [UInt8], hash: Int) throws(PMTilesWriterFailure) -> Int {
        let key = Key(length: data.count, hash: hash)
        for candidate in byKey[key] ?? [] where try read(candidate) == data {
            return candidate
        }
        let failure = DescriptorWriter.writeAll(Data(data), to: descriptor)
        guard failure == 0 else { throw PMTilesWriterFailure("cannot write tile data: \(DescriptorWriter.reason(failure))") }
        contents.append(Content(offset: size, length: data.count))
        size += UInt64(data.count)
        byKey[key, default: []].append(contents.count - 1)
        return contents.count - 1
    }

    /// The bytes of content number `index`.
    func read(_ index: Int) throws(PMTilesWriterFailure) -> [UInt8] {
        let content = contents[index]
        var bytes = [UInt8](repeating: 0, count: content.length)
        var done = 0
        let failure: Int32 = bytes.withUnsafeMutableBytes { raw in
            while done < content.length {
                let n = pread(descriptor, raw.baseAddress! + done, content.length - done, off_t(content.offset) + off_t(done))
                if n < 0, errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return EIO }
                done += n
            }
            return 0
        }
        guard failure == 0 else { throw PMTilesWriterFailure("cannot read back tile data: \(DescriptorWriter.reason(failure))") }
        return bytes
    }
}

/// Why writing an archive failed, before the archive's path is added (`OutputError`).
struct PMTilesWriterFailure: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
