import Foundation

/// Styles of a batch, each loaded once however many jobs name it: built-in names as they are,
/// files relative to a base folder (the manifest's). A style that fails to load is remembered
/// with its problems, so every job naming it fails with the same reason without a new attempt.
/// With a `confinement` folder, a style file must lie inside it (after `..` and symbolic
/// links): a manifest or suite from elsewhere cannot read other files through its styles.
public actor StyleCache {
    private let baseFolder: String
    private let remote: RemoteEnvironment
    private let confinement: String?
    /// By resolved path (or built-in name): the style, or its problems.
    private var styles: [String: Result<MapStyle, StyleError>] = [:]
    /// Resolved paths of style files found missing.
    private var missing: Set<String> = []

    /// How many distinct styles were loaded.
    public var loaded: Int { styles.values.count { if case .success = $0 { true } else { false } } }

    /// How many distinct styles failed to load (missing, or with problems).
    public var failedToLoad: Int { styles.count - loaded + missing.count }

    /// `remote`: the disk cache and HTTP client every remote source of these styles shares;
    /// `confinement`: the folder style files must lie in (nil: anywhere).
    public init(baseFolder: String, remote: RemoteEnvironment = .standard, confinement: String? = nil) {
        self.baseFolder = baseFolder
        self.remote = remote
        self.confinement = confinement
    }

    /// The style a job names; errors name the style as this job wrote it.
    public func style(_ name: String) throws(ManifestError) -> MapStyle {
        if BuiltInStyle.named(name) != nil { return try load(name, key: name) }
        guard !name.utf8.contains(0) else { throw ManifestError("style '\(name)': the path holds a NUL character") }
        let key = resolved(name)
        if let confinement, !StyleCache.isInside(key, folder: confinement) {
            throw ManifestError("style '\(name)': \(key) is outside \(confinement), the folder style files must be in; "
                                + "move the style there, or pass --allow-outside-paths")
        }
        guard FileManager.default.fileExists(atPath: key) else {
            missing.insert(key)
            throw ManifestError("style '\(name)': no such style file (looked for \(key)), and no built-in "
                                + "style has that name (`mapcompose styles` lists them)")
        }
        return try load(name, key: key)
    }

    private func load(_ name: String, key: String) throws(ManifestError) -> MapStyle {
        let result: Result<MapStyle, StyleError>
        if let known = styles[key] {
            result = known
        } else {
            do {
                result = .success(try StyleLoader.load(nameOrPath: key, remote: remote))
            } catch {
                result = .failure(error)
            }
            styles[key] = result
        }
        switch result {
        case .success(let style): return style
        case .failure(let error):
            throw ManifestError("style '\(name)': " + error.lines.joined(separator: "; "))
        }
    }

    private func resolved(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: baseFolder, isDirectory: true).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    /// True when `path`, with its symbolic links resolved, lies inside `folder` (resolved too).
    static func isInside(_ path: String, folder: String) -> Bool {
        func real(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let base = real(folder)
        let target = real(path)
        return target == base || target.hasPrefix(base == "/" ? "/" : base + "/")
    }
}
