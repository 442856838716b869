import Foundation
import Yams

/// Collects style problems with file, line and key path while walking a YAML node tree. A
/// problem found again at the same place (a node reached through several aliases of one anchor)
/// is kept once, so that aliases cannot multiply the list; a mapping reached again is neither
/// read nor checked for unknown keys again.
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

    /// Mappings whose keys were checked, with the keys allowed: one reached again through an
    /// alias in the same role is not checked again.
    private var keyChecks: Set<KeyCheck> = []

    private struct KeyCheck: Hashable {
        let line: Int
        let column: Int
        let allowed: [String]
    }

    /// The entries of the mappings read, by place.
    private var mappings: [Place: StyleMappingEntries] = [:]

    private struct Place: Hashable {
        let line: Int
        let column: Int
    }

    init(file: String) { self.file = file }

    /// The entries of `mapping`, the mapping at `node`: read once for each place in the file.
    func entries(of node: Node, _ mapping: Node.Mapping) -> StyleMappingEntries {
        guard let mark = node.mark else { return StyleMappingEntries(mapping) }
        let place = Place(line: mark.line, column: mark.column)
        if let entries = mappings[place] { return entries }
        let entries = StyleMappingEntries(mapping)
        mappings[place] = entries
        return entries
    }

    /// False when the keys of the mapping at `node`'s place were already checked against `allowed`.
    func isFirstKeyCheck(of node: Node, allowed: [String]) -> Bool {
        guard let mark = node.mark else { return true }
        return keyChecks.insert(KeyCheck(line: mark.line, column: mark.column, allowed: allowed)).inserted
    }

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
