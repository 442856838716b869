import Foundation

/// A 1-based line and column (in characters) in UTF-8 text, for messages about a byte offset.
struct TextPosition: Equatable, CustomStringConvertible {
    let line: Int
    let column: Int

    /// The position of the byte at `offset` (the end of the text when `offset` equals its
    /// length); nil when `offset` is outside the text.
    init?(byteOffset offset: Int, in data: Data) {
        guard offset >= 0, offset <= data.count else { return nil }
        let before = data.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        line = before.count { $0 == UInt8(ascii: "\n") } + 1
        // Characters, not bytes: count the scalars that start in the line so far.
        column = before[lineStart...].count { $0 & 0xC0 != 0x80 } + 1
    }

    var description: String { "line \(line), column \(column)" }
}
