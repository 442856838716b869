import Foundation

/// Styles of a batch, each loaded once however many jobs name it: built-in names as they are,
/// files relative to a base folder (the manifest's). A style that fails to load is remembered
/// with its problems, so every job naming it fails with the same reason without a new attempt.
public actor StyleCache {
    private let baseFolder: String
    private let remote: RemoteEnvironment
    private var styles: [String: Result<MapStyle, ManifestError>] = [:]

    /// How many distinct styles were loaded (or failed to load).
    public var loads: Int { styles.count }

    /// `remote`: the disk cache and HTTP client every remote source of these styles shares.
    public init(baseFolder: String, remote: RemoteEnvironment = .standard) {
        self.baseFolder = baseFolder
        self.remote = remote
    }

    /// The style a job names.
    public func style(_ name: String) throws(ManifestError) -> MapStyle {
        let key = BuiltInStyle.named(name) != nil ? name : resolved(name)
        if let known = styles[key] { return try known.get() }
        let result: Result<MapStyle, ManifestError>
        if BuiltInStyle.named(name) == nil, !FileManager.default.fileExists(atPath: key) {
            result = .failure(ManifestError("style '\(name)': no such style file (looked for \(key)), and no built-in "
                                            + "style has that name (`mapcompose styles` lists them)"))
        } else {
            do {
                result = .success(try StyleLoader.load(nameOrPath: key, remote: remote))
            } catch {
                result = .failure(ManifestError("style '\(name)': " + error.lines.joined(separator: "; ")))
            }
        }
        styles[key] = result
        return try result.get()
    }

    private func resolved(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: baseFolder, isDirectory: true).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
