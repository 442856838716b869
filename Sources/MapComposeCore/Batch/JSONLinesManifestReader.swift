import Foundation

/// Reads a JSON Lines manifest one line at a time: each non-blank line is one job, a JSON
/// object whose values are text, numbers or lists of numbers (`"center": [51.5, -0.12]` reads
/// as `"51.5,-0.12"`). A line that is not such an object is a bad row, not the end. A line
/// longer than `maxLineBytes` and text with NUL bytes (UTF-16, or a device such as `/dev/zero`)
/// end the reading with an error: such input is not a manifest, and may never end.
public final class JSONLinesManifestReader: ManifestRowReader {
    /// Longest line read.
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

    /// Reads from an open file (standard input, say); `name` locates its rows in messages.
    public init(handle: FileHandle, name: String) {
        self.handle = handle
        self.name = name
    }

    deinit {
        try? handle.close()
    }

    public func next() throws(ManifestError) -> ManifestRow? {
        while var line = try readLine() {
            lineNumber += 1
            // A UTF-8 byte order mark before the first row is skipped.
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            defer { ordinal += 1 }
            return ManifestRow(location: "\(name):\(lineNumber)", ordinal: ordinal, fields: Self.fields(line))
        }
        return nil
    }

    /// The next line without its newline, or nil at the end of the file.
    private func readLine() throws(ManifestError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                guard !line.contains(0) else { throw ManifestFormat.notUTF8("\(name):\(lineNumber + 1)") }
                start = newline + 1
                return line
            }
            if buffer.count - start > Self.maxLineBytes {
                throw ManifestError("\(name):\(lineNumber + 1): line longer than \(Self.maxLineBytes >> 20) MiB: "
                                    + "not a manifest of one JSON object per line; rows from there on were not read")
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                guard !line.contains(0) else { throw ManifestFormat.notUTF8("\(name):\(lineNumber + 1)") }
                start = buffer.count
                return line
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
            guard let chunk, !chunk.isEmpty else {
                atEnd = true
                continue
            }
            // NUL bytes in the line being read (say from /dev/zero) are refused before the line
            // grows further; those of later lines when they are reached.
            let isFirst = lineNumber == 0 && buffer.isEmpty
            let lineEnd = chunk.firstIndex(of: 0x0A) ?? chunk.endIndex
            if chunk[..<lineEnd].contains(0) || (isFirst && (chunk.starts(with: [0xFF, 0xFE]) || chunk.starts(with: [0xFE, 0xFF]))) {
                throw ManifestFormat.notUTF8("\(name):\(lineNumber + 1)")
            }
            buffer.append(contentsOf: chunk)
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
            if container.decodeNil() { self = .null; return }
            if let flag = try? container.decode(Bool.self) { self = .flag(flag); return }
            // Foundation parses numbers as it decodes them: one a Double cannot hold (1e400)
            // throws its own error, not the type mismatch of a value that is no number.
            var outOfRange = false
            do {
                self = .number(try container.decode(Double.self))
                return
            } catch is DecodingError {
            } catch {
                outOfRange = true
            }
            if let text = try? container.decode(String.self) { self = .text(text); return }
            do {
                self = .list(try container.decode([Value].self))
            } catch {
                if outOfRange { throw NumberOutOfRange(key: decoder.codingPath.first?.stringValue ?? "") }
                throw error
            }
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

    /// A number beyond the range of a Double (about ±1.8e308).
    private struct NumberOutOfRange: Error {
        let key: String
    }

    private static func fields(_ line: ArraySlice<UInt8>) -> Result<[String: String], ManifestError> {
        let object: [String: Value]
        do {
            object = try JSONDecoder().decode([String: Value].self, from: Data(line))
        } catch let error as NumberOutOfRange {
            return .failure(ManifestError("\(error.key.isEmpty ? "a value" : "'\(error.key)'"): a number out of range "
                                          + "(beyond ±1.8e308); give a smaller number"))
        } catch {
            let head = String(decoding: line.prefix(60), as: UTF8.self)
            return .failure(ManifestError("not a JSON object (\(head)\(line.count > 60 ? "…" : "")); write one job per line, "
                                          + "e.g. {\"output\": \"london.png\", \"center\": \"51.5,-0.12\", \"zoom\": 5}"))
        }
        return .success(object.compactMapValues(\.text))
    }
}
