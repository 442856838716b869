import Yams

/// The entries of one YAML mapping, read once: in order, and by key (the first of a repeated
/// key). A mapping reached through many aliases of one anchor shares one of these
/// (`StyleProblemLog.entries(of:)`), so aliases do not multiply the work of reading it.
final class StyleMappingEntries {
    let list: [(key: String, value: Node)]
    private let byKey: [String: Node]

    init(_ mapping: Node.Mapping) {
        list = mapping.map { (key: $0.key.string ?? "", value: $0.value) }
        var byKey: [String: Node] = [:]
        for entry in list where byKey[entry.key] == nil { byKey[entry.key] = entry.value }
        self.byKey = byKey
    }

    subscript(key: String) -> Node? { byKey[key] }
}
