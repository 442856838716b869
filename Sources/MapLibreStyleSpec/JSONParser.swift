/// An error reading JSON text, with the byte offset where it was found.
public struct JSONParseError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public let offset: Int
    public var description: String { "JSON at byte \(offset): \(message)" }
}

extension JSONValue {
    /// Nesting that `parse` accepts by default. The parser keeps its own stack, so the limit
    /// guards memory and later recursive walks rather than the parser itself.
    public static let defaultMaxDepth = 16_384

    /// Parses JSON text (RFC 8259). Integers without fraction or exponent that fit in 64 bits
    /// become `.int`, other numbers `.double`; duplicate object keys keep the last value.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        var reader = JSONReader(bytes: Array(text.utf8), maxDepth: maxDepth)
        return try reader.parseDocument()
    }

    /// Parses JSON from UTF-8 bytes.
    public static func parse(bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }
}

/// The reader behind `JSONValue.parse`: an explicit stack of open containers, no recursion.
struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    var pos = 0

    private enum Container {
        case array([JSONValue])
        case object(JSONObject, pendingKey: String)
    }

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: pos) }

    private mutating func skipSpace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard pos < bytes.count, bytes[pos] == byte else {
            throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        pos += 1
    }

    mutating func parseDocument() throws -> JSONValue {
        var stack: [Container] = []
        var value: JSONValue
        outer: while true {
            // Read a value, or open a container and continue with its first element.
            skipSpace()
            guard pos < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[pos] {
            case UInt8(ascii: "["):
                pos += 1
                if stack.count >= maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
                skipSpace()
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    stack.append(.array([]))
                    continue outer
                }
            case UInt8(ascii: "{"):
                pos += 1
                if stack.count >= maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
                skipSpace()
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    let key = try parseString()
                    try expect(UInt8(ascii: ":"))
                    stack.append(.object(JSONObject(), pendingKey: key))
                    continue outer
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try literal("true"); value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false"); value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null"); value = .null
            default:
                value = try parseNumber()
            }
            // Hand the value to the open containers, closing those that end here.
            while true {
                guard let top = stack.popLast() else {
                    skipSpace()
                    if pos != bytes.count { throw fail("unexpected text after the value") }
                    return value
                }
                skipSpace()
                guard pos < bytes.count else { throw fail("unexpected end of input") }
                let c = bytes[pos]
                pos += 1
                // Consumed, so the open container's storage is unique and grows in place
                // (a copy per element made large arrays quadratic).
                switch consume top {
                case .array(var items):
                    items.append(value)
                    if c == UInt8(ascii: ",") {
                        stack.append(.array(items))
                        continue outer
                    } else if c == UInt8(ascii: "]") {
                        value = .array(items)
                    } else {
                        pos -= 1
                        throw fail("expected ',' or ']'")
                    }
                case .object(var object, let key):
                    object[key] = value
                    if c == UInt8(ascii: ",") {
                        skipSpace()
                        let next = try parseString()
                        try expect(UInt8(ascii: ":"))
                        stack.append(.object(object, pendingKey: next))
                        continue outer
                    } else if c == UInt8(ascii: "}") {
                        value = .object(object)
                    } else {
                        pos -= 1
                        throw fail("expected ',' or '}'")
                    }
                }
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard pos + n <= bytes.count else { throw fail("invalid literal") }
        let p = word.utf8Start
        for i in 0..<n where bytes[pos + i] != p[i] { throw fail("invalid literal") }
        pos += n
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = pos
        var isInteger = true
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        let digitsStart = pos
        while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 { pos += 1 }
        if pos == digitsStart { throw fail("invalid value") }
        if bytes[digitsStart] == 0x30, pos - digitsStart > 1 { throw fail("leading zero in number") }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            let f = pos
            while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 { pos += 1 }
            if pos == f { throw fail("digits expected after '.'") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            isInteger = false
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            let e = pos
            while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 { pos += 1 }
            if pos == e { throw fail("digits expected in exponent") }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text) else { throw fail("invalid number") }
        return .double(d)
    }

    private mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            pos += 1
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
        }
        return v
    }

    private mutating func parseString() throws -> String {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        pos += 1
        let start = pos
        // Fast path: no escapes.
        while pos < bytes.count, bytes[pos] != UInt8(ascii: "\""), bytes[pos] != UInt8(ascii: "\\") {
            if bytes[pos] < 0x20 { throw fail("control character in string") }
            pos += 1
        }
        guard pos < bytes.count else { throw fail("unterminated string") }
        if bytes[pos] == UInt8(ascii: "\"") {
            pos += 1
            return String(decoding: bytes[start..<(pos - 1)], as: UTF8.self)
        }
        var out = Array(bytes[start..<pos])
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let c = bytes[pos]
            pos += 1
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard pos < bytes.count else { throw fail("unterminated string") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800, scalar < 0xDC00, pos + 6 <= bytes.count,
                    bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
                {
                    let save = pos
                    pos += 2
                    let low = try hex4()
                    if low >= 0xDC00, low < 0xE000 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        pos = save
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
