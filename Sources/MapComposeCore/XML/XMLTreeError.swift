/// Why a document could not be read as XML: where the parser stopped and why, or (line 0) a
/// fault in the document as a whole, such as its size or encoding. Column 0: not known.
public struct XMLTreeError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let detail: String

    public var description: String {
        guard line > 0 else { return "unreadable XML: \(detail)" }
        return "malformed XML at line \(line)\(column > 0 ? ", column \(column)" : ""): \(detail)"
    }
}
