import Foundation

/// One element of a parsed XML document: its local name (namespace prefix dropped), its own
/// text and its child elements, in document order. Read by `XMLTreeReader`; enough
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
    /// document stops being well-formed, or which bound (`XMLTreeReader`) it exceeds.
    public static func parse(_ data: Data) throws(XMLTreeError) -> XMLTreeElement {
        try XMLTreeReader.root(of: data)
    }
}
