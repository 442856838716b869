/// Why a document is not well-formed XML, with where the parser stopped.
public struct XMLTreeError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let detail: String

    public var description: String { "malformed XML at line \(line), column \(column): \(detail)" }
}
