import Foundation

/// Finds the world basemap a style names as `mapcompose://basemap`: the file given by
/// `MAPCOMPOSE_BASEMAP` (the CLI's `--basemap FILE` sets it), else `basemap.pmtiles` in the
/// user's data folder (`$XDG_DATA_HOME/mapcompose`, by default `~/.local/share/mapcompose`),
/// the system data folders (`$XDG_DATA_DIRS`, by default /usr/local/share and /usr/share),
/// or beside the executable (its own folder, or `../share/mapcompose`).
/// `MAPCOMPOSE_BASEMAP=none` turns the basemap off: built-in styles draw their 1:110m data.
public enum BasemapLocator {
    /// The URL styles use for the installed basemap.
    public static let styleURL = "mapcompose://basemap"
    /// The environment variable that names the basemap file.
    public static let variable = "MAPCOMPOSE_BASEMAP"
    public static let fileName = "basemap.pmtiles"

    /// Where `make basemap` puts the file for this user.
    public static func userFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        dataHome(environment).appendingPathComponent("mapcompose").appendingPathComponent(fileName)
    }

    /// The folders searched, in order (the explicit file aside).
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: URL? = ExecutableLocation.url) -> [URL] {
        var result = [userFile(environment: environment)]
        let dirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").filter { $0.hasPrefix("/") }
        result += dirs.map { URL(fileURLWithPath: String($0)).appendingPathComponent("mapcompose").appendingPathComponent(fileName) }
        if let folder = executable?.resolvingSymlinksInPath().deletingLastPathComponent() {
            result.append(folder.appendingPathComponent(fileName))
            result.append(folder.deletingLastPathComponent().appendingPathComponent("share/mapcompose").appendingPathComponent(fileName))
        }
        return result
    }

    /// The basemap to draw: the explicit file when `MAPCOMPOSE_BASEMAP` is set (which must
    /// exist), else the first candidate that is a file; nil when there is none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL? = ExecutableLocation.url) throws(BasemapLocatorError) -> URL? {
        if environment[variable] == "none" { return nil }
        if let named = environment[variable], !named.isEmpty {
            let url = URL(fileURLWithPath: named).standardizedFileURL
            let status = PathStatus(url)
            guard case .file = status else {
                throw BasemapLocatorError(description: "the basemap '\(named)' (\(variable) or --basemap) "
                                          + (status.problem(expecting: "a PMTiles or MBTiles file") ?? "cannot be used"))
            }
            return url
        }
        return candidates(environment: environment, executable: executable).first { url in
            if case .file = PathStatus(url) { return true }
            return false
        }
    }

    /// How to get the basemap, for messages.
    public static let howToInstall = "build it with `make basemap` (under a minute; docs/basemap.md) or name a Protomaps "
        + "PMTiles with --basemap FILE"

    private static func dataHome(_ environment: [String: String]) -> URL {
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home) }
        let user = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: user).appendingPathComponent(".local/share")
    }
}

/// The basemap named by `MAPCOMPOSE_BASEMAP` or `--basemap` cannot be used.
public struct BasemapLocatorError: Error, CustomStringConvertible {
    public let description: String
}
