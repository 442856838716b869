/// A value an expression evaluates to.
public enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([Value])
    case object(ValueObject)
    case collator(Collator)
    case formatted(Formatted)
    case image(ResolvedImage)
    /// Four numbers: top, right, bottom, left (`padding` properties).
    case padding([Double])
    case numberArray([Double])
    case colorArray([Color])
    /// A transition between two projections (`projection`'s `type`, interpolated).
    case projection(ProjectionTransition)

    /// The value of a style JSON value (integers become doubles, as in JavaScript).
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .double(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Value.init))
        case .object(let o): self = .object(o.mapValues(Value.init))
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var number: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolean: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var color: Color? {
        if case .color(let c) = self { return c }
        return nil
    }

    /// The type of a value at run time; arrays get an item type only where all items share it.
    public var type: ExpressionType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .collator: return .collator
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .padding: return .padding
        case .numberArray: return .numberArray
        case .colorArray: return .colorArray
        case .projection: return .projectionDefinition
        case .array(let items):
            var item: ExpressionType?
            for v in items {
                let t = v.type
                if item == nil {
                    item = t
                } else if item == t, !t.isArray {
                    continue
                } else {
                    item = .value
                    break
                }
            }
            return .array(item ?? .value, length: items.count)
        }
    }

    /// JavaScript's truthiness, as `to-boolean` uses it.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .number(let d): return !(d == 0 || d.isNaN)
        case .string(let s): return !s.isEmpty
        default: return true
        }
    }

    /// Strict equality (`===`): same type and value for strings, numbers, booleans and null;
    /// arrays, objects and other values are never equal to another evaluation's result.
    func strictlyEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        default: return false
        }
    }

    /// The text `to-string` and `concat` make of a value.
    public var stringValue: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JavaScriptNumber.string(d)
        case .string(let s): return s
        case .color(let c): return c.cssString
        case .formatted(let f): return f.text
        case .image(let i): return i.name
        case .collator: return "{}"
        case .padding(let v), .numberArray(let v): return Value.array(v.map(Value.number)).jsonText
        case .colorArray(let c): return Value.array(c.map(Value.color)).jsonText
        case .projection(let p):
            if p.from == p.to && p.transition == 1 { return p.from }
            return Value.array([.string(p.from), .string(p.to), .number(p.transition)]).jsonText
        case .array, .object: return jsonText
        }
    }

    /// `JSON.stringify` of the value.
    public var jsonText: String {
        var out = ""
        writeJSON(to: &out)
        return out
    }

    fileprivate func writeJSON(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += d.isFinite ? JavaScriptNumber.string(d) : "null"
        case .string(let s): Value.writeJSONString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.writeJSON(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, m) in o.members.enumerated() {
                if i > 0 { out += "," }
                Value.writeJSONString(m.key, to: &out)
                out += ":"
                m.value.writeJSON(to: &out)
            }
            out += "}"
        case .color(let c):
            out += "{\"r\":\(JavaScriptNumber.string(c.r)),\"g\":\(JavaScriptNumber.string(c.g)),"
            out += "\"b\":\(JavaScriptNumber.string(c.b)),\"a\":\(JavaScriptNumber.string(c.a))}"
        case .image(let i):
            out += "{\"name\":"
            Value.writeJSONString(i.name, to: &out)
            out += ",\"available\":\(i.available)}"
        case .padding(let v), .numberArray(let v):
            out += "{\"values\":" + Value.array(v.map(Value.number)).jsonText + "}"
        case .colorArray(let c):
            out += "{\"values\":" + Value.array(c.map(Value.color)).jsonText + "}"
        case .projection(let p):
            out += "{\"from\":"
            Value.writeJSONString(p.from, to: &out)
            out += ",\"to\":"
            Value.writeJSONString(p.to, to: &out)
            out += ",\"transition\":\(JavaScriptNumber.string(p.transition))}"
        case .formatted(let f):
            out += "{\"sections\":["
            for (i, section) in f.sections.enumerated() {
                if i > 0 { out += "," }
                out += "{\"text\":"
                Value.writeJSONString(section.text, to: &out)
                out += ",\"image\":"
                section.image.map { Value.image($0) }.writeJSON(to: &out)
                out += ",\"scale\":"
                section.scale.map { Value.number($0) }.writeJSON(to: &out)
                out += ",\"fontStack\":"
                section.fontStack.map { Value.string($0) }.writeJSON(to: &out)
                out += ",\"textColor\":"
                section.textColor.map { Value.color($0) }.writeJSON(to: &out)
                out += ",\"verticalAlign\":"
                section.verticalAlign.map { Value.string($0) }.writeJSON(to: &out)
                out += "}"
            }
            out += "]}"
        case .collator:
            out += "{}"
        }
    }

    static func writeJSONString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

/// An object value in written order.
public typealias ValueObject = OrderedMembers<Value>

/// An image name and whether the renderer has it (`image` expression).
public struct ResolvedImage: Sendable, Equatable {
    public var name: String
    public var available: Bool
}

/// One run of text (or an image) in a `format` expression's result.
public struct FormattedSection: Sendable, Equatable {
    public var text: String
    public var image: ResolvedImage?
    public var scale: Double?
    public var fontStack: String?
    public var textColor: Color?
    public var verticalAlign: String?
}

/// Rich text: what `format` evaluates to.
public struct Formatted: Sendable, Equatable {
    public var sections: [FormattedSection]

    /// Plain text as one unstyled section.
    public init(text: String) {
        sections = [FormattedSection(text: text)]
    }

    public init(sections: [FormattedSection]) {
        self.sections = sections
    }

    /// The sections' text joined.
    public var text: String { sections.map(\.text).joined() }
}

/// Part of the way from one projection to another.
public struct ProjectionTransition: Sendable, Equatable {
    public var from: String
    public var to: String
    public var transition: Double
}

extension Optional where Wrapped == Value {
    /// JSON of the value, `null` where there is none.
    fileprivate func writeJSON(to out: inout String) {
        (self ?? .null).writeJSON(to: &out)
    }
}
