import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The message of an OGC exception document (WMS `ServiceExceptionReport`, OWS
/// `ExceptionReport`): the text of its `ServiceException` or `ExceptionText` elements.
public enum ServiceExceptionText {
    /// The exception messages in `data`, joined; nil when it is not such a document.
    public static func message(in data: Data) -> String? {
        guard let safe = try? XMLParserInput.prepared(data) else { return nil }
        let collector = Collector()
        let parser = XMLParser(data: safe)
        parser.delegate = collector
        _ = parser.parse()
        guard collector.isReport else { return nil }
        let messages = collector.messages.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return messages.isEmpty ? "(no message)" : messages.joined(separator: "; ")
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var isReport = false
        var messages: [String] = []
        private var current: String?
        private var code: String?

        private static func local(_ name: String) -> String { String(name.split(separator: ":").last ?? "") }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch Self.local(name) {
            case "ServiceExceptionReport", "ExceptionReport": isReport = true
            case "ServiceException", "ExceptionText":
                current = ""
                code = attributes["code"] ?? attributes["exceptionCode"]
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            current?.append(string)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let local = Self.local(name)
            guard local == "ServiceException" || local == "ExceptionText", let text = current else { return }
            messages.append(code.map { "\($0): \(text.trimmingCharacters(in: .whitespacesAndNewlines))" } ?? text)
            current = nil
            code = nil
        }
    }
}
