/// Object members that keep the order they were written in, looked up by hashing.
public struct OrderedMembers<Element: Sendable>: Sendable {
    public private(set) var keys: [String] = []
    private var storage: [String: Element] = [:]

    public init() {}

    public init(_ pairs: [(String, Element)]) {
        for (k, v) in pairs { self[k] = v }
    }

    public subscript(key: String) -> Element? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public var count: Int { keys.count }

    /// Members in written order.
    public var members: [(key: String, value: Element)] { keys.map { ($0, storage[$0]!) } }

    /// The members as an unordered dictionary.
    public var dictionary: [String: Element] { storage }

    /// Applies `transform` to every value, keeping the order.
    public func mapValues<T>(_ transform: (Element) throws -> T) rethrows -> OrderedMembers<T> {
        var out = OrderedMembers<T>()
        for k in keys { out[k] = try transform(storage[k]!) }
        return out
    }
}

extension OrderedMembers: Equatable where Element: Equatable {
    /// Equal members, in any order.
    public static func == (a: Self, b: Self) -> Bool { a.storage == b.storage }
}

/// A JSON object in written order.
public typealias JSONObject = OrderedMembers<JSONValue>
