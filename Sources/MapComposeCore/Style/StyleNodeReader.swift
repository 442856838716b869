import Foundation
import Yams

/// Typed, problem-reporting access to one YAML mapping of a style.
struct StyleMapping {
    let node: Node
    let keyPath: String
    let log: StyleProblemLog
    private let entries: StyleMappingEntries

    /// Nil (with a problem logged) when `node` is not a mapping.
    init?(_ node: Node, keyPath: String, log: StyleProblemLog) {
        guard case .mapping(let mapping) = node else {
            log.add(node, keyPath, "expected a mapping of keys to values")
            return nil
        }
        self.node = node
        self.keyPath = keyPath
        self.log = log
        entries = log.entries(of: node, mapping)
    }

    func path(_ key: String) -> String { keyPath.isEmpty ? key : "\(keyPath).\(key)" }

    func value(_ key: String) -> Node? { entries[key] }

    /// The mapping's keys, in file order.
    var keys: [String] { entries.list.map(\.key) }

    /// Longest part of an unknown key quoted in a message.
    static let quotedKeyLength = 40

    /// Logs every key not in `allowed` (once for a mapping that aliases reach many times).
    func rejectUnknownKeys(_ allowed: [String]) {
        guard log.isFirstKeyCheck(of: node, allowed: allowed) else { return }
        var message: String?
        for entry in entries.list where !allowed.contains(entry.key) {
            message = message ?? "unknown key (expected one of: \(allowed.joined(separator: ", ")))"
            let key = entry.key.count > Self.quotedKeyLength ? entry.key.prefix(Self.quotedKeyLength) + "…" : entry.key
            log.add(entry.value, path(key), message!)
        }
    }

    func requireValue(_ key: String) -> Node? {
        guard let value = value(key) else {
            log.add(node, path(key), "missing required key")
            return nil
        }
        return value
    }

    func string(_ key: String, required: Bool = false) -> String? {
        guard let value = required ? requireValue(key) : value(key) else { return nil }
        guard case .scalar(let scalar) = value, !scalar.string.isEmpty else {
            log.add(value, path(key), "expected a non-empty text value")
            return nil
        }
        return scalar.string
    }

    func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
        scalar(key, in: range, expected: "a number", show: \.exactText) { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        scalar(key, in: range, expected: "a whole number", show: String.init) { Int($0) }
    }

    /// A scalar parsed by `parse` and checked against `range`, or nil with a problem logged.
    private func scalar<T: Comparable>(_ key: String, in range: ClosedRange<T>, expected: String,
                                       show: (T) -> String, parse: (String) -> T?) -> T? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text) = value, let parsed = parse(text.string) else {
            log.add(value, path(key), "expected \(expected), got \(Self.show(value))")
            return nil
        }
        guard range.contains(parsed) else {
            log.add(value, path(key), "must be between \(show(range.lowerBound)) and \(show(range.upperBound)), got \(text.string)")
            return nil
        }
        return parsed
    }

    func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.flag else {
            log.add(value, path(key), "expected true or false, got \(Self.show(value))")
            return nil
        }
        return flag
    }

    /// `[low, high]`: two numbers within `range` with low ≤ high.
    func numberPair(_ key: String, in range: ClosedRange<Double>) -> ClosedRange<Double>? {
        guard let items = sequence(key) else { return nil }
        let numbers = items.compactMap { $0.scalar.flatMap { Double($0.string) } }.filter(\.isFinite)
        guard items.count == 2, numbers.count == 2 else {
            log.add(value(key), path(key), "expected [low, high]: two numbers")
            return nil
        }
        guard range.contains(numbers[0]), range.contains(numbers[1]) else {
            log.add(value(key), path(key), "expected numbers within \(range.lowerBound.exactText)…\(range.upperBound.exactText)")
            return nil
        }
        guard numbers[0] <= numbers[1] else {
            log.add(value(key), path(key), "reversed: \(numbers[0].exactText) is above \(numbers[1].exactText) (write [low, high])")
            return nil
        }
        return numbers[0]...numbers[1]
    }

    func color(_ key: String) -> RGBA? {
        guard let text = string(key) else { return nil }
        guard let color = RGBA(parsing: text) else {
            log.add(value(key), path(key), Self.notAColour("'\(text)'"))
            return nil
        }
        return color
    }

    /// The message for a value (as shown) that is not a colour.
    static func notAColour(_ shown: String) -> String {
        "\(shown) is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)"
    }

    /// An optional colour where `none` means "do not draw".
    func optionalColor(_ key: String, default fallback: RGBA?) -> RGBA?? {
        guard value(key) != nil else { return .some(fallback) }
        if string(key) == "none" { return .some(nil) }
        guard let color = color(key) else { return nil }
        return .some(color)
    }

    func sequence(_ key: String, required: Bool = false) -> [Node]? {
        guard let value = required ? requireValue(key) : value(key) else { return nil }
        guard case .sequence(let items) = value else {
            log.add(value, path(key), "expected a list")
            return nil
        }
        return Array(items)
    }

    /// `[west, south, east, north]` in degrees.
    func bounds(_ key: String) -> GeoBounds? {
        guard let items = sequence(key) else { return nil }
        let numbers = items.compactMap { $0.scalar.flatMap { Double($0.string) } }
        guard numbers.count == 4, items.count == 4 else {
            log.add(value(key), path(key), "expected [west, south, east, north] in degrees")
            return nil
        }
        let b = GeoBounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
        guard b.isValidBox else {
            log.add(value(key), path(key), "expected [west, south, east, north] with south < north and west ≠ east "
                    + "(west > east crosses the antimeridian), within ±180/±90")
            return nil
        }
        return b
    }

    static func show(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string.messageExcerpt)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}

extension Node {
    /// A YAML 1.1 boolean: a plain (unquoted) `true`, `yes`, `on`, `false`, `no` or `off`, all in
    /// lower case, capitalised or in capitals, or a scalar tagged `!!bool`; nil for anything else,
    /// quoted text included. Styles are composed without Yams' tag resolver (its regular
    /// expressions cost more than the rest of loading a style), so plain scalars arrive as text.
    var flag: Bool? {
        guard case .scalar(let scalar) = self, scalar.style == .plain || scalar.tag.description == Tag.Name.bool.rawValue else {
            return nil
        }
        return Self.booleanWords[scalar.string]
    }

    private static let booleanWords: [String: Bool] = {
        var words: [String: Bool] = [:]
        for (word, value) in [("true", true), ("yes", true), ("on", true), ("false", false), ("no", false), ("off", false)] {
            for form in [word, word.prefix(1).uppercased() + word.dropFirst(), word.uppercased()] { words[form] = value }
        }
        return words
    }()
}
