import Foundation
import Yams

/// One case of a check suite: a folder holding `case.yaml` and one or more `expected*.png`.
///
/// `case.yaml` is a mapping with the keys of a batch job (`style`, `center` + `zoom` or
/// `bbox` + `padding`, `size`, `scale`; the style relative to the case's folder), plus
/// `threshold` (pixelmatch, default 0.1) and `allowed` (share of differing pixels that
/// passes, default 0).
public struct CheckCase: Sendable {
    /// The name of the case's file in its folder.
    public static let fileName = "case.yaml"

    public let name: String
    public let folder: URL
    public let job: BatchJob
    public let comparison: ImageComparison
    /// The expected images, sorted by name.
    public let expected: [URL]

    /// Reads the case in `folder`; the error names the file and key.
    public init(folder: URL) throws(ManifestError) {
        self.folder = folder
        name = folder.lastPathComponent
        let file = folder.appendingPathComponent(Self.fileName)
        var fields: [String: String]
        let data = try Self.read(file, expecting: "a case file")
        do {
            guard let text = String(data: data, encoding: .utf8) else {
                throw ManifestError("not UTF-8 text")
            }
            guard let node = try Yams.compose(yaml: text), let mapping = node.mapping else {
                throw ManifestError("expected a mapping of keys, e.g. style: default, center: \"51.5,-0.12\", zoom: 5")
            }
            fields = [:]
            for (key, value) in mapping {
                guard let key = key.string else { throw ManifestError("keys must be text") }
                if let scalar = value.scalar {
                    fields[key] = scalar.string
                } else if let sequence = value.sequence, sequence.allSatisfy({ $0.scalar != nil }) {
                    fields[key] = sequence.compactMap { $0.scalar?.string }.joined(separator: ",")
                } else {
                    throw ManifestError("\(key): expected a value or a list of values")
                }
            }
        } catch let error as ManifestError {
            throw ManifestError("\(file.path): \(error)")
        } catch {
            throw ManifestError("\(file.path): cannot read: \(error)")
        }
        func fraction(_ key: String, _ fallback: Double) throws(ManifestError) -> Double {
            guard let text = fields.removeValue(forKey: key) else { return fallback }
            guard let value = Double(text), (0...1).contains(value) else {
                throw ManifestError("\(file.path): \(key) '\(text)' must be a number from 0 to 1")
            }
            return value
        }
        comparison = ImageComparison(threshold: try fraction("threshold", 0.1), allowed: try fraction("allowed", 0))
        fields["output"] = "actual.png"
        do {
            job = try BatchJob(fields: fields)
        } catch {
            throw ManifestError("\(file.path): \(error)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        expected = names.filter { $0.hasPrefix("expected") && $0.lowercased().hasSuffix(".png") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The bytes of a file of the case; the error names the file and says what is wrong with it
    /// (missing, a folder, empty, unreadable).
    static func read(_ file: URL, expecting what: String) throws(ManifestError) -> Data {
        if let problem = PathStatus(file).problem(expecting: what) {
            throw ManifestError("\(file.path) \(problem)")
        }
        let data: Data
        do {
            data = try PathStatus.read(file)
        } catch {
            throw ManifestError("\(file.path): cannot read: \(error.reason)")
        }
        guard !data.isEmpty else { throw ManifestError("\(file.path) is empty, not \(what)") }
        return data
    }

    /// An expected image, decoded; the error names the file.
    static func expectedImage(_ file: URL) throws(ManifestError) -> RGBAImage {
        let data = try read(file, expecting: "a PNG image")
        do {
            return try StraightPNGDecoder.decode(data)
        } catch {
            throw ManifestError("\(file.path): \(error)")
        }
    }
}
