import Foundation

/// The message of an OGC exception document (WMS `ServiceExceptionReport`, OWS
/// `ExceptionReport`): the text of its `ServiceException` or `ExceptionText` elements.
public enum ServiceExceptionText {
    /// The exception messages in `data`, joined; nil when it is not such a document (or not a
    /// well-formed one, read as `XMLTreeElement.parse` reads any document).
    public static func message(in data: Data) -> String? {
        guard let root = try? XMLTreeElement.parse(data), ["ServiceExceptionReport", "ExceptionReport"].contains(root.name) else {
            return nil
        }
        var messages: [String] = []
        func collect(_ element: XMLTreeElement) {
            if element.name == "ServiceException" || element.name == "ExceptionText", !element.text.isEmpty {
                let code = element.attributes["code"] ?? element.attributes["exceptionCode"]
                messages.append(code.map { "\($0): \(element.text)" } ?? element.text)
            }
            element.children.forEach(collect)
        }
        collect(root)
        return messages.isEmpty ? "(no message)" : messages.joined(separator: "; ")
    }
}
