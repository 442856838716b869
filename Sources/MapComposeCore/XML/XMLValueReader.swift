import Foundation

/// Reads the text of XML elements as numbers, with errors naming the element: `fail` turns a
/// reason into the caller's own error type (which adds the file or URL).
struct XMLValueReader<Failure: Error> {
    let fail: (String) -> Failure

    private func fail(_ key: String, _ reason: String) -> Failure {
        fail("<\(key)>: \(reason)")
    }

    func text(_ element: XMLTreeElement?, _ key: String) throws(Failure) -> String {
        guard let element else { throw fail("no <\(key)>") }
        return element.text
    }

    func number(_ element: XMLTreeElement?, _ key: String,
                in range: ClosedRange<Double> = -1e300...1e300) throws(Failure) -> Double {
        let text = try text(element, key)
        guard let value = Double(text), value.isFinite else { throw fail(key, "'\(text)' is not a number") }
        guard range.contains(value) else {
            throw fail(key, "\(text) is outside \(range.lowerBound.exactText)…\(range.upperBound.exactText)")
        }
        return value
    }

    func integer(_ element: XMLTreeElement?, _ key: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        let text = try text(element, key)
        guard let value = Int(text) else { throw fail(key, "'\(text)' is not a whole number") }
        guard range.contains(value) else { throw fail(key, "\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    func optionalNumber(_ element: XMLTreeElement?, _ key: String) throws(Failure) -> Double? {
        guard let element else { return nil }
        return try number(element, key)
    }

    func optionalInteger(_ element: XMLTreeElement?, _ key: String) throws(Failure) -> Int? {
        guard let element, !element.text.isEmpty else { return nil }
        return try integer(element, key, in: Int.min...Int.max)
    }

    /// Two numbers separated by white space (a WMTS `TopLeftCorner`, an OWS corner).
    func pair(_ element: XMLTreeElement?, _ key: String) throws(Failure) -> (Double, Double) {
        let text = try text(element, key)
        let parts = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy(\.isFinite) else { throw fail(key, "'\(text)' is not two numbers") }
        return (parts[0], parts[1])
    }
}
