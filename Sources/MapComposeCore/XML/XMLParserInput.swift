import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Bytes made safe for Foundation's `XMLParser` on Linux, which traps (ending the process)
/// instead of reporting an error on two kinds of input: text that is not UTF-8, and a
/// processing instruction without data such as `<?name?>` (libxml2 passes no data, which
/// Foundation reads as a C string). Every XML document mapcompose reads goes through here.
enum XMLParserInput {
    /// `data` ready for `XMLParser`: a data-less processing instruction gets a space before its
    /// `?>`, which libxml2 then reports with empty data (nothing else changes meaning). Throws
    /// for text that is not UTF-8, naming the first bad byte.
    static func prepared(_ data: Data) throws(XMLTreeError) -> Data {
        if let offset = firstInvalidUTF8(data) {
            throw XMLTreeError(line: 0, column: 0, detail: "byte \(offset) is not UTF-8 (documents must be UTF-8)")
        }
        return paddingBareProcessingInstructions(data)
    }

    /// What an `XMLParser` error says, in words. On Linux its own description is only "The
    /// operation could not be completed", and its code is libxml2's error number (the
    /// `XMLParser.ErrorCode` names are off by one there; see libxml/xmlerror.h), so the common
    /// ones are spelled out.
    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        guard nsError.domain == XMLParser.errorDomain else { return nsError.localizedDescription }
        let words: String
        switch nsError.code {
        case 4: words = "the document is empty"
        case 5: words = "the document is not well-formed: it ends early, a tag is not closed or does not match, or something follows the root element"
        case 6, 7, 8, 9: words = "an invalid character or character reference"
        case 26, 27: words = "an entity that is not declared"
        case 38: words = "a < inside an attribute value"
        case 39, 40, 41: words = "an attribute value that is missing, not quoted or not closed"
        case 42: words = "an attribute given twice"
        case 45: words = "a comment that is not closed"
        case 46, 47: words = "a malformed processing instruction"
        case 68: words = "a name is missing"
        case 73: words = "a start tag is not closed with >"
        case 76: words = "an end tag does not match its start tag"
        case 77: words = "a tag is not finished"
        default: words = "the document is not well-formed"
        }
        return "\(words) (libxml2 error \(nsError.code))"
    }

    /// The offset of the first byte that breaks UTF-8, or nil when all of `data` is UTF-8.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }

    /// `data` with a space inserted before the `?>` of every `<?…?>` whose target runs straight
    /// into it; `data` itself when there is none.
    static func paddingBareProcessingInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let less = UInt8(ascii: "<"), question = UInt8(ascii: "?"), greater = UInt8(ascii: ">")
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var insertions: [Int] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == less, bytes[index + 1] == question else {
                index += 1
                continue
            }
            var end = index + 2
            while end < bytes.count, !isSpace(bytes[end]), !(bytes[end] == question && end + 1 < bytes.count && bytes[end + 1] == greater) {
                end += 1
            }
            if end + 1 < bytes.count, bytes[end] == question, bytes[end + 1] == greater { insertions.append(end) }
            index = end
        }
        guard !insertions.isEmpty else { return data }
        var padded: [UInt8] = []
        padded.reserveCapacity(bytes.count + insertions.count)
        var copied = 0
        for position in insertions {
            padded += bytes[copied..<position]
            padded.append(0x20)
            copied = position
        }
        padded += bytes[copied...]
        return Data(padded)
    }
}
