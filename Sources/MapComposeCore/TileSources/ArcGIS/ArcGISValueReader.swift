import Foundation

/// Reads the text of conf.xml / conf.cdi elements as numbers, with errors naming the element.
struct ArcGISValueReader {
    let path: String

    private func fail(_ key: String, _ reason: String) -> ArcGISCacheError {
        ArcGISCacheError(path: path, reason: "<\(key)>: \(reason)")
    }

    func text(_ element: XMLTreeElement?, _ key: String) throws(ArcGISCacheError) -> String {
        guard let element else { throw ArcGISCacheError(path: path, reason: "no <\(key)>") }
        return element.text
    }

    func number(_ element: XMLTreeElement?, _ key: String,
                in range: ClosedRange<Double> = -1e300...1e300) throws(ArcGISCacheError) -> Double {
        let text = try text(element, key)
        guard let value = Double(text), value.isFinite else { throw fail(key, "'\(text)' is not a number") }
        guard range.contains(value) else {
            throw fail(key, "\(text) is outside \(range.lowerBound.exactText)…\(range.upperBound.exactText)")
        }
        return value
    }

    func integer(_ element: XMLTreeElement?, _ key: String, in range: ClosedRange<Int>) throws(ArcGISCacheError) -> Int {
        let text = try text(element, key)
        guard let value = Int(text) else { throw fail(key, "'\(text)' is not a whole number") }
        guard range.contains(value) else { throw fail(key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    func optionalNumber(_ element: XMLTreeElement?, _ key: String) throws(ArcGISCacheError) -> Double? {
        guard let element else { return nil }
        return try number(element, key)
    }

    func optionalInteger(_ element: XMLTreeElement?, _ key: String) throws(ArcGISCacheError) -> Int? {
        guard let element, !element.text.isEmpty else { return nil }
        return try integer(element, key, in: Int.min...Int.max)
    }
}
