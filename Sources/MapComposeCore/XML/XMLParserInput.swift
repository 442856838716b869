import Foundation

/// Bytes made safe for Foundation's `XMLParser` on Linux, which traps (ending the process)
/// instead of reporting an error on some input: text that is not UTF-8, and declarations for
/// which libxml2 passes a missing string that Foundation reads as a C string: a processing
/// instruction without data (`<?name?>`), and in a document type declaration a notation or
/// unparsed entity without a public identifier, or an attribute without a default. Every XML
/// document mapcompose reads goes through here, those read by `XMLTreeReader` too: no document
/// type declaration, and so no entity definition, reaches a parser.
enum XMLParserInput {
    /// `data` ready for `XMLParser`: a data-less processing instruction gets a space before its
    /// `?>`, which libxml2 then reports with empty data; the document type declaration (never
    /// needed by the configuration and capabilities documents read here) is blanked out, its
    /// line breaks kept so that error positions stay true. Throws for text that is not UTF-8,
    /// naming the first bad byte, and for a document type declaration that does not end.
    static func prepared(_ data: Data) throws(XMLTreeError) -> Data {
        if let offset = firstInvalidUTF8(data) {
            throw XMLTreeError(line: 0, column: 0, detail: "byte \(offset) is not UTF-8 (documents must be UTF-8)")
        }
        return paddingBareProcessingInstructions(try blankingDocumentTypeDeclarations(data))
    }

    /// `data` with each `<!DOCTYPE …>` (with its internal subset, quoted strings, comments and
    /// processing instructions inside it) turned into spaces, line breaks kept.
    static func blankingDocumentTypeDeclarations(_ data: Data) throws(XMLTreeError) -> Data {
        let opening = Array("<!DOCTYPE".utf8)
        var bytes = [UInt8](data)
        var index = 0
        var changed = false
        while let start = firstIndex(of: opening, in: bytes, from: index) {
            guard let end = declarationEnd(bytes, from: start + opening.count) else {
                let line = bytes[..<start].count { $0 == 0x0A } + 1
                throw XMLTreeError(line: line, column: 0, detail: "the document type declaration (<!DOCTYPE) does not end")
            }
            for position in start...end where bytes[position] != 0x0A && bytes[position] != 0x0D { bytes[position] = 0x20 }
            changed = true
            index = end + 1
        }
        return changed ? Data(bytes) : data
    }

    /// The index of the `>` that closes a declaration whose body starts at `from`: outside
    /// quotes, comments, processing instructions and the `[…]` internal subset; nil if none.
    private static func declarationEnd(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from, depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = bytes[(index + 1)...].firstIndex(of: byte) else { return nil }
                index = close + 1
            } else if let skip = skipped.first(where: { starts(with: $0.0, in: bytes, at: index) }) {
                guard let close = firstIndex(of: Array(skip.1.utf8), in: bytes, from: index + skip.0.utf8.count) else { return nil }
                index = close + skip.1.utf8.count
            } else {
                if byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "]") { depth = max(0, depth - 1) }
                if byte == UInt8(ascii: ">"), depth == 0 { return index }
                index += 1
            }
        }
        return nil
    }

    /// What a declaration's end is not looked for in: comments and processing instructions.
    private static let skipped = [("<!--", "-->"), ("<?", "?>")]

    private static func starts(with text: String, in bytes: [UInt8], at index: Int) -> Bool {
        bytes[index...].starts(with: text.utf8)
    }

    /// Where `pattern` (not empty) first starts in `bytes` at or after `from`: the first byte found
    /// with `firstIndex(of:)`, then the rest compared.
    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        let last = bytes.count - pattern.count
        var index = from
        while index <= last, let found = bytes[index...last].firstIndex(of: pattern[0]) {
            if bytes[found..<(found + pattern.count)].elementsEqual(pattern) { return found }
            index = found + 1
        }
        return nil
    }

    /// The offset of the first byte that breaks UTF-8, or nil when all of `data` is UTF-8.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    /// `data` with a space inserted before the `?>` of every `<?…?>` whose target runs straight
    /// into it; `data` itself when there is none.
    static func paddingBareProcessingInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let less = UInt8(ascii: "<"), question = UInt8(ascii: "?"), greater = UInt8(ascii: ">")
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var insertions: [Int] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == less, bytes[index + 1] == question else {
                index += 1
                continue
            }
            var end = index + 2
            while end < bytes.count, !isSpace(bytes[end]), !(bytes[end] == question && end + 1 < bytes.count && bytes[end + 1] == greater) {
                end += 1
            }
            if end + 1 < bytes.count, bytes[end] == question, bytes[end + 1] == greater { insertions.append(end) }
            index = end
        }
        guard !insertions.isEmpty else { return data }
        var padded: [UInt8] = []
        padded.reserveCapacity(bytes.count + insertions.count)
        var copied = 0
        for position in insertions {
            padded += bytes[copied..<position]
            padded.append(0x20)
            copied = position
        }
        padded += bytes[copied...]
        return Data(padded)
    }
}
