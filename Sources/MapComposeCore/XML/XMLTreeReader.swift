import CLibXML2
import Foundation

/// Reads a document into `XMLTreeElement`s with libxml2's streaming reader, within stated
/// bounds: at most `maximumBytes` of text and `maximumDepth` nested elements, so that neither a
/// large document nor a deep one can exhaust memory or the stack. Entities are not expanded and
/// nothing is fetched from the network. Errors carry libxml2's line and column of the fault.
enum XMLTreeReader {
    /// The largest document read (64 MiB): big capabilities documents run to tens of megabytes.
    static let maximumBytes = 64 << 20
    /// The deepest nesting of elements read; real configuration documents nest under 20.
    static let maximumDepth = 256

    /// No DTD loading or entity substitution (the defaults), no network, no recovery, the text
    /// taken as UTF-8 whatever it declares, errors told to the handler only (never printed);
    /// libxml2's own size limits are lifted because `maximumBytes` and `maximumDepth` bound the work.
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_NOCDATA.rawValue
                                       | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOERROR.rawValue
                                       | XML_PARSE_NOWARNING.rawValue)

    /// libxml2's global state, set up once before the first document.
    private static let initialized: Void = xmlInitParser()

    /// The root element of the document `given`, once its size is checked and
    /// `XMLParserInput` has made it safe.
    static func root(of given: Data) throws(XMLTreeError) -> XMLTreeElement {
        guard given.count <= maximumBytes else {
            throw XMLTreeError(line: 0, column: 0, detail: "the document is \(given.count) bytes, more than the "
                               + "\(maximumBytes >> 20) MiB read; is it the right document?")
        }
        guard !given.isEmpty else { throw XMLTreeError(line: 1, column: 1, detail: "the document is empty") }
        let data = try XMLParserInput.prepared(given)
        _ = initialized
        let result = data.withUnsafeBytes { bytes -> Result<XMLTreeElement, XMLTreeError> in
            let buffer = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
            guard let reader = xmlReaderForMemory(buffer, Int32(bytes.count), nil, "UTF-8", options) else {
                return .failure(XMLTreeError(line: 1, column: 1, detail: "libxml2 could not start reading the document"))
            }
            defer { xmlFreeTextReader(reader) }
            let errors = FirstError()
            return withExtendedLifetime(errors) {
                xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
                    guard let context, let error else { return }
                    Unmanaged<FirstError>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
                }, Unmanaged.passUnretained(errors).toOpaque())
                return Result { () throws(XMLTreeError) in try read(reader, errors: errors) }
            }
        }
        return try result.get()
    }

    /// Walks the reader's nodes, building elements on a stack of open ones.
    private static func read(_ reader: xmlTextReaderPtr, errors: FirstError) throws(XMLTreeError) -> XMLTreeElement {
        var builder = XMLTreeBuilder()
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else {
                throw errors.first ?? XMLTreeError(line: Int(xmlTextReaderGetParserLineNumber(reader)),
                                                   column: Int(xmlTextReaderGetParserColumnNumber(reader)),
                                                   detail: "the document is not well-formed")
            }
            switch xmlReaderTypes(UInt32(xmlTextReaderNodeType(reader))) {
            case XML_READER_TYPE_ELEMENT:
                guard builder.depth < maximumDepth else {
                    // The element's own line; the parser reads ahead, so its column is only
                    // the element's when it is still on that line.
                    let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
                    let parserLine = Int(xmlTextReaderGetParserLineNumber(reader))
                    throw XMLTreeError(line: line, column: parserLine == line ? Int(xmlTextReaderGetParserColumnNumber(reader)) : 0,
                                       detail: "elements nest more than \(maximumDepth) deep; is it the right document?")
                }
                let name = string(xmlTextReaderConstLocalName(reader))
                builder.open(name, attributes: attributes(reader))
                if xmlTextReaderIsEmptyElement(reader) == 1 { builder.close() }
            case XML_READER_TYPE_END_ELEMENT:
                builder.close()
            case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_WHITESPACE,
                 XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
                builder.append(text: string(xmlTextReaderConstValue(reader)))
            default:
                break
            }
        }
        if let error = errors.first { throw error }
        guard let root = builder.root else { throw XMLTreeError(line: 1, column: 1, detail: "no root element") }
        return root
    }

    /// The attributes of the element the reader is on, by qualified name (namespace
    /// declarations included, as `xmlns:…`).
    private static func attributes(_ reader: xmlTextReaderPtr) -> [String: String] {
        guard xmlTextReaderHasAttributes(reader) == 1 else { return [:] }
        var attributes: [String: String] = [:]
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            attributes[string(xmlTextReaderConstName(reader))] = string(xmlTextReaderConstValue(reader))
        }
        xmlTextReaderMoveToElement(reader)
        return attributes
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// The first error libxml2 reports (warnings aside), with its position.
    private final class FirstError {
        var first: XMLTreeError?

        func record(_ error: xmlError) {
            guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let message = error.message.map { String(cString: $0) } ?? "the document is not well-formed"
            first = XMLTreeError(line: Int(error.line), column: Int(error.int2),
                                 detail: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
