import Foundation

/// Reads a JSON Lines manifest one line at a time: each non-blank line is one job, a JSON
/// object whose values are text, numbers or lists of numbers (`"center": [51.5, -0.12]` reads
/// as `"51.5,-0.12"`). A line that is not such an object is a bad row, not the end.
public final class JSONLinesManifestReader: ManifestRowReader {
    /// Longest line read; a longer one is a bad row (its bytes are skipped, not kept).
    public static let maxLineBytes = 1 << 20
    private static let chunkSize = 1 << 16

    private let handle: FileHandle
    private let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0
    private var ordinal = 0

    public init(path: String) throws(ManifestError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ManifestError("\(path): cannot open the manifest for reading")
        }
        self.handle = handle
        name = path
    }

    deinit {
        try? handle.close()
    }

    public func next() throws(ManifestError) -> ManifestRow? {
        while let (line, overlong) = try readLine() {
            lineNumber += 1
            if !overlong, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            defer { ordinal += 1 }
            let location = "\(name):\(lineNumber)"
            guard !overlong else {
                return ManifestRow(location: location, ordinal: ordinal, fields: .failure(ManifestError(
                    "line longer than \(Self.maxLineBytes) bytes: one job per line, as a JSON object")))
            }
            return ManifestRow(location: location, ordinal: ordinal, fields: Self.fields(line))
        }
        return nil
    }

    /// The next line without its newline, or nil at the end of the file; `overlong` when it
    /// was longer than `maxLineBytes` (its bytes are dropped).
    private func readLine() throws(ManifestError) -> (bytes: ArraySlice<UInt8>, overlong: Bool)? {
        var overlong = false
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                return (overlong ? [] : line, overlong)
            }
            if buffer.count - start > Self.maxLineBytes {
                overlong = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if atEnd {
                guard start < buffer.count || overlong else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return (overlong ? [] : line, overlong)
            }
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Self.chunkSize)
            } catch {
                throw ManifestError("\(name):\(lineNumber + 1): cannot read the manifest: \(error.localizedDescription)")
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
    }

    /// A JSON value of a manifest field.
    private enum Value: Decodable {
        case text(String)
        case number(Double)
        case flag(Bool)
        case list([Value])
        case null

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else if let text = try? container.decode(String.self) { self = .text(text) }
            else { self = .list(try container.decode([Value].self)) }
        }

        var text: String? {
            switch self {
            case .text(let text): return text
            case .number(let number):
                if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
                return number.exactText
            case .flag(let flag): return flag ? "true" : "false"
            case .list(let values): return values.map { $0.text ?? "" }.joined(separator: ",")
            case .null: return nil
            }
        }
    }

    private static func fields(_ line: ArraySlice<UInt8>) -> Result<[String: String], ManifestError> {
        let object: [String: Value]
        do {
            object = try JSONDecoder().decode([String: Value].self, from: Data(line))
        } catch {
            let head = String(decoding: line.prefix(60), as: UTF8.self)
            return .failure(ManifestError("not a JSON object (\(head)\(line.count > 60 ? "…" : "")); write one job per line, "
                                          + "e.g. {\"output\": \"london.png\", \"center\": \"51.5,-0.12\", \"zoom\": 5}"))
        }
        return .success(object.compactMapValues(\.text))
    }
}
