import Foundation
import Yams

/// Collects style problems with file, line and key path while walking a YAML node tree. A
/// problem found again at the same place (a node reached through several aliases of one anchor)
/// is kept once, so that aliases cannot multiply the list.
final class StyleProblemLog {
    let file: String
    private var logged: [StyleProblem] = []
    private var seen: Set<Occurrence> = []
    /// How many times a problem was reported, repeats included: grows with every `add`.
    private(set) var reportCount = 0

    /// Where and what: the node's position, or for a problem without a node its key path.
    private struct Occurrence: Hashable {
        let line: Int?
        let column: Int?
        let keyPath: String
        let message: String
    }

    init(file: String) { self.file = file }

    /// Problems in file order (by line, then in the order found).
    var problems: [StyleProblem] {
        logged.enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .map(\.element)
    }

    var isEmpty: Bool { logged.isEmpty }

    func add(_ node: Node?, _ keyPath: String, _ message: String) {
        reportCount += 1
        let mark = node?.mark
        let occurrence = Occurrence(line: mark?.line, column: mark?.column, keyPath: mark == nil ? keyPath : "", message: message)
        guard seen.insert(occurrence).inserted else { return }
        logged.append(StyleProblem(file: file, line: mark?.line, keyPath: keyPath, message: message))
    }

    /// Things worth knowing that do not stop the style loading, in the order found.
    private(set) var notes: [StyleProblem] = []

    func note(_ node: Node?, _ keyPath: String, _ message: String) {
        notes.append(StyleProblem(file: file, line: node?.mark?.line, keyPath: keyPath, message: message))
    }
}
