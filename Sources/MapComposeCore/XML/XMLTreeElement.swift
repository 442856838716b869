import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of a parsed XML document: its local name (namespace prefix dropped), its own
/// text and its child elements, in document order. Built with Foundation's `XMLParser`; enough
/// for configuration documents such as ArcGIS's conf.xml or an OGC capabilities document.
public final class XMLTreeElement: Sendable {
    public let name: String
    /// The element's character data, trimmed of surrounding white space.
    public let text: String
    public let attributes: [String: String]
    public let children: [XMLTreeElement]

    init(name: String, text: String, attributes: [String: String], children: [XMLTreeElement]) {
        self.name = name
        self.text = text
        self.attributes = attributes
        self.children = children
    }

    /// The first child element named `name` (local name, any namespace).
    public func child(_ name: String) -> XMLTreeElement? {
        children.first { $0.name == name }
    }

    /// Every child element named `name`.
    public func children(_ name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name }
    }

    /// The element at the end of a path of child names, e.g. `["TileOrigin", "X"]`.
    public func path(_ names: String...) -> XMLTreeElement? {
        names.reduce(Optional(self)) { element, name in element?.child(name) }
    }

    /// Parses `data` as an XML document and returns its root element; the error says where the
    /// document stops being well-formed.
    public static func parse(_ data: Data) throws(XMLTreeError) -> XMLTreeElement {
        let parser = XMLParser(data: try XMLParserInput.prepared(data))
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let line = parser.lineNumber, column = parser.columnNumber
            let detail = parser.parserError.map(XMLParserInput.describe) ?? "no root element"
            throw XMLTreeError(line: line, column: column, detail: builder.root == nil && parser.parserError == nil
                               ? "no root element" : detail)
        }
        return root
    }

    /// Collects parser events into elements.
    private final class Builder: NSObject, XMLParserDelegate {
        struct Open {
            var name: String
            var attributes: [String: String]
            var text = ""
            var children: [XMLTreeElement] = []
        }

        var stack: [Open] = []
        var root: XMLTreeElement?

        static func localName(_ qualified: String) -> String {
            qualified.split(separator: ":").last.map(String.init) ?? qualified
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            stack.append(Open(name: Self.localName(elementName), attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            guard let open = stack.popLast() else { return }
            let element = XMLTreeElement(name: open.name, text: open.text.trimmingCharacters(in: .whitespacesAndNewlines),
                                         attributes: open.attributes, children: open.children)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
