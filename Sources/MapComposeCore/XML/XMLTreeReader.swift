import CLibXML2Loader
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
    private static let options = MC_XML_PARSE_NONET | MC_XML_PARSE_HUGE | MC_XML_PARSE_NOCDATA | MC_XML_PARSE_IGNORE_ENC
        | MC_XML_PARSE_NOERROR | MC_XML_PARSE_NOWARNING

    /// libxml2, loaded and set up once before the first document; or why it cannot be.
    private static let loaded: String? = {
        var why = [CChar](repeating: 0, count: 512)
        guard mc_xml_load(&why, why.count) == 0 else {
            return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }()

    /// The root element of the document `given`, once its size is checked and
    /// `XMLParserInput` has made it safe.
    static func root(of given: Data) throws(XMLTreeError) -> XMLTreeElement {
        guard given.count <= maximumBytes else {
            throw XMLTreeError(line: 0, column: 0, detail: "the document is \(given.count) bytes, more than the "
                               + "\(maximumBytes >> 20) MiB read; is it the right document?")
        }
        guard !given.isEmpty else { throw XMLTreeError(line: 1, column: 1, detail: "the document is empty") }
        let data = try XMLParserInput.prepared(given)
        if let why = loaded { throw XMLTreeError(line: 0, column: 0, detail: why) }
        let result = data.withUnsafeBytes { bytes -> Result<XMLTreeElement, XMLTreeError> in
            let buffer = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
            guard let reader = mc_xmlReaderForMemory(buffer, Int32(bytes.count), nil, "UTF-8", options) else {
                return .failure(XMLTreeError(line: 1, column: 1, detail: "libxml2 could not start reading the document"))
            }
            defer { mc_xmlFreeTextReader(reader) }
            let errors = FirstError()
            return withExtendedLifetime(errors) {
                mc_xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
                    guard let context, let error else { return }
                    Unmanaged<FirstError>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
                }, Unmanaged.passUnretained(errors).toOpaque())
                return Result { () throws(XMLTreeError) in try read(reader, errors: errors) }
            }
        }
        return try result.get()
    }

    /// Walks the reader's nodes, building elements on a stack of open ones.
    private static func read(_ reader: OpaquePointer, errors: FirstError) throws(XMLTreeError) -> XMLTreeElement {
        var builder = XMLTreeBuilder()
        while true {
            let status = mc_xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else {
                throw errors.first ?? XMLTreeError(line: Int(mc_xmlTextReaderGetParserLineNumber(reader)),
                                                   column: Int(mc_xmlTextReaderGetParserColumnNumber(reader)),
                                                   detail: "the document is not well-formed")
            }
            switch mc_xmlTextReaderNodeType(reader) {
            case MC_XML_READER_TYPE_ELEMENT:
                guard builder.depth < maximumDepth else {
                    // The element's own line; the parser reads ahead, so its column is only
                    // the element's when it is still on that line.
                    let line = Int(mc_xmlGetLineNo(mc_xmlTextReaderCurrentNode(reader)))
                    let parserLine = Int(mc_xmlTextReaderGetParserLineNumber(reader))
                    throw XMLTreeError(line: line, column: parserLine == line ? Int(mc_xmlTextReaderGetParserColumnNumber(reader)) : 0,
                                       detail: "elements nest more than \(maximumDepth) deep; is it the right document?")
                }
                let name = string(mc_xmlTextReaderConstLocalName(reader))
                builder.open(name, attributes: attributes(reader))
                if mc_xmlTextReaderIsEmptyElement(reader) == 1 { builder.close() }
            case MC_XML_READER_TYPE_END_ELEMENT:
                builder.close()
            case MC_XML_READER_TYPE_TEXT, MC_XML_READER_TYPE_CDATA, MC_XML_READER_TYPE_WHITESPACE,
                 MC_XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
                builder.append(text: string(mc_xmlTextReaderConstValue(reader)))
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
    private static func attributes(_ reader: OpaquePointer) -> [String: String] {
        guard mc_xmlTextReaderHasAttributes(reader) == 1 else { return [:] }
        var attributes: [String: String] = [:]
        while mc_xmlTextReaderMoveToNextAttribute(reader) == 1 {
            attributes[string(mc_xmlTextReaderConstName(reader))] = string(mc_xmlTextReaderConstValue(reader))
        }
        mc_xmlTextReaderMoveToElement(reader)
        return attributes
    }

    private static func string(_ text: UnsafePointer<UInt8>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// The first error libxml2 reports (warnings aside), with its position.
    private final class FirstError {
        var first: XMLTreeError?

        func record(_ error: mc_xml_error) {
            guard first == nil, error.level >= MC_XML_ERR_ERROR else { return }
            let message = error.message.map { String(cString: $0) } ?? "the document is not well-formed"
            first = XMLTreeError(line: Int(error.line), column: Int(error.int2),
                                 detail: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
