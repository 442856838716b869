/// The static type of an expression, as the style specification's type checker knows it.
public indirect enum ExpressionType: Equatable, Sendable, CustomStringConvertible {
    case null, number, string, boolean, color, object, value, error, collator, formatted, resolvedImage
    case padding, numberArray, colorArray, variableAnchorOffsetCollection, projectionDefinition
    /// An array of `item`, of exactly `length` elements when given.
    case array(ExpressionType, length: Int?)

    /// `array` of `value` of any length: what "array" means unqualified.
    public static let anyArray = ExpressionType.array(.value, length: nil)

    /// The name the specification uses, as in `typeof` and in error messages: `array<number, 2>`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .error: return "error"
        case .collator: return "collator"
        case .formatted: return "formatted"
        case .resolvedImage: return "resolvedImage"
        case .padding: return "padding"
        case .numberArray: return "numberArray"
        case .colorArray: return "colorArray"
        case .variableAnchorOffsetCollection: return "variableAnchorOffsetCollection"
        case .projectionDefinition: return "projectionDefinition"
        case .array(let item, let n):
            if let n { return "array<\(item), \(n)>" }
            return item == .value ? "array" : "array<\(item)>"
        }
    }

    /// The kind without array parameters, for the checks that look only at the kind.
    var kindName: String {
        if case .array = self { return "array" }
        return description
    }

    var isArray: Bool {
        if case .array = self { return true }
        return false
    }

    private static let valueMembers: [ExpressionType] = [
        .null, .number, .string, .boolean, .color, .projectionDefinition, .formatted, .object, .anyArray,
        .padding, .numberArray, .colorArray, .resolvedImage, .variableAnchorOffsetCollection,
    ]

    /// Nil when `t` may be used where `self` is expected, else the specification's message.
    public func subtypeError(_ t: ExpressionType) -> String? {
        if t == .error { return nil }
        if case .array(let item, let n) = self {
            if case .array(let tItem, let tn) = t,
                (tn == 0 && tItem == .value) || item.subtypeError(tItem) == nil,
                n == nil || n == tn
            {
                return nil
            }
        } else if kindName == t.kindName {
            return nil
        } else if self == .value {
            for m in ExpressionType.valueMembers where m.subtypeError(t) == nil { return nil }
        }
        return "Expected \(self) but found \(t) instead."
    }
}
