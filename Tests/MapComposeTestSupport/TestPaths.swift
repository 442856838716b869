import Foundation

/// Locations the tests read from and write to.
public enum TestPaths {
    /// The repository root (three levels above this file).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Committed fixtures: `Tests/Fixtures/…`.
    public static func fixture(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(path)
    }

    /// Where actual and diff images go: `Output/test-results/<name>/`, created on demand.
    public static func results(_ name: String) -> URL {
        let url = repositoryRoot.appendingPathComponent("Output/test-results").appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The debug build's products folder (where `mapcompose` is built).
    public static var productsFolder: URL {
        let candidates = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for folder in candidates where FileManager.default.fileExists(atPath: folder.appendingPathComponent("mapcompose").path) {
            return folder
        }
        return repositoryRoot.appendingPathComponent(".build/debug")
    }
}

/// A fresh folder under the system temporary folder, removed when released.
public final class TemporaryFolder {
    public let url: URL

    public init(_ label: String = "mapcompose-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` inside the folder and returns its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try write(Data(text.utf8), to: name)
    }

    /// Writes `data` to `name` (creating sub-folders) and returns its URL.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}
