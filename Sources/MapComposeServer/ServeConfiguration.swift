import Foundation
import MapComposeCore
import Yams

/// What `mapcompose serve` serves and its limits: `serve.yaml` (every key optional), then the
/// command line's `--style NAME=FILE`, `--host` and `--port` on top. docs/serve.md lists the keys.
public struct ServeConfiguration: Sendable {
    /// A style the server serves under `name`.
    public struct StyleEntry: Sendable, Equatable {
        public var name: String
        /// A style file (resolved against the configuration's folder) or a built-in style name.
        public var file: String
        /// Cache-Control of this style's images; nil for the configuration's.
        public var cacheControl: String?

        public init(name: String, file: String, cacheControl: String? = nil) {
            self.name = name
            self.file = file
            self.cacheControl = cacheControl
        }
    }

    /// Bounds on what one request may ask; each refusal is a JSON error with a 4xx status
    /// (503 for `maxInFlight`).
    public struct Limits: Sendable, Equatable {
        /// Device pixels a side of a static map (size × scale).
        public var maxSize = 2048
        /// Overlay parameters in one request.
        public var maxOverlays = 100
        /// Bytes of the request target (path and query).
        public var maxURLLength = 8192
        /// Bytes of a request body (none of the endpoints reads one).
        public var maxBodyBytes = 0
        /// Seconds a render waits for tiles before drawing the missing ones by fallback.
        public var deadline = 20.0
        /// Renders at once; more are answered 503 with Retry-After. Renders share the CPU pool,
        /// so this bounds memory and waiting, not cores: a browser asks for a dozen tiles at once.
        public var maxInFlight = max(32, CPUPool.cores * 8)
        /// The Retry-After of a 503, in seconds.
        public var retryAfter = 1
        /// Seconds a connection may stay open with no request under way (a client that sent part
        /// of a request head and then nothing counts as idle); then it is closed. 0: never.
        public var idleTimeout = 30.0
        /// Connections the kernel queues for the server before it accepts them (capped by
        /// net.core.somaxconn); past it, a burst of new connections waits for SYN retries.
        public var backlog = 1024
        /// Connections open at once; one accepted past it is closed at once, before a byte of it
        /// is read (those within it are served as usual). 0: no bound.
        public var maxConnections = 0

        public init() {}
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var styles: [StyleEntry] = []
    public var cacheControl = "public, max-age=3600"
    /// The disk cache of remote sources; nil for the default folder.
    public var cacheDir: String?
    /// MiB of decoded tiles kept in memory, shared by every request.
    public var tileMemory = TileStore.defaultMemoryBudget >> 20
    /// Seconds between looks at the style files for changes (0: only SIGHUP reloads).
    public var watchInterval = 2.0
    public var limits = Limits()

    public init() {}

    /// Which style entry serves `name`.
    public func style(named name: String) -> StyleEntry? { styles.first { $0.name == name } }

    /// Reads a configuration file; style files are resolved against its folder.
    public static func load(file: String) throws(ServeConfigurationError) -> ServeConfiguration {
        let text: String
        do {
            text = String(decoding: try InputFile.read(file), as: UTF8.self)
        } catch {
            throw ServeConfigurationError("\(file): cannot read it: \(error.reason)")
        }
        return try parse(text, file: file)
    }

    /// Parses configuration text; `file` names it in messages and anchors relative style paths.
    public static func parse(_ text: String, file: String) throws(ServeConfigurationError) -> ServeConfiguration {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch { throw ServeConfigurationError("\(file): not YAML: \(error)") }
        var configuration = ServeConfiguration()
        guard let node else { return configuration }
        guard let top = node.mapping else { throw ServeConfigurationError("\(file): expected a mapping of keys") }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        let reader = KeyReader(file: file)
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            switch key {
            case "host": configuration.host = try reader.string(value, key)
            case "port": configuration.port = try reader.int(value, key, 0...65535)
            case "cache_control": configuration.cacheControl = try reader.headerValue(value, key)
            case "cache_dir":
                let dir = try reader.string(value, key)
                configuration.cacheDir = dir.hasPrefix("/") ? dir : folder.appendingPathComponent(dir).standardizedFileURL.path
            case "tile_memory": configuration.tileMemory = try reader.int(value, key, 0...(1 << 20))
            case "watch_interval": configuration.watchInterval = try reader.seconds(value, key, allowZero: true)
            case "styles":
                guard let styles = value.mapping else { throw reader.problem(key, "expected a mapping of NAME: FILE") }
                for (nameNode, entry) in styles {
                    let name = nameNode.string ?? ""
                    try checkStyleName(name, where: "\(file): styles")
                    var style = StyleEntry(name: name, file: "")
                    if let plain = entry.string {
                        style.file = plain
                    } else if let fields = entry.mapping {
                        for (fieldNode, fieldValue) in fields {
                            let field = fieldNode.string ?? ""
                            switch field {
                            case "file": style.file = try reader.string(fieldValue, "styles.\(name).file")
                            case "cache_control": style.cacheControl = try reader.headerValue(fieldValue, "styles.\(name).cache_control")
                            default: throw reader.problem("styles.\(name).\(field)", "unknown key (expected file, cache_control)")
                            }
                        }
                    } else {
                        throw reader.problem("styles.\(name)", "expected a style file, or a mapping with file and cache_control")
                    }
                    guard !style.file.isEmpty else { throw reader.problem("styles.\(name)", "no style file given") }
                    style.file = resolve(style.file, against: folder)
                    configuration.styles.append(style)
                }
            case "limits":
                guard let limits = value.mapping else { throw reader.problem(key, "expected a mapping") }
                for (limitNode, limitValue) in limits {
                    let limit = limitNode.string ?? ""
                    let path = "limits.\(limit)"
                    switch limit {
                    case "max_size": configuration.limits.maxSize = try reader.int(limitValue, path, 1...Viewport.maxDeviceSide)
                    case "max_overlays": configuration.limits.maxOverlays = try reader.int(limitValue, path, 0...100_000)
                    case "max_url_length": configuration.limits.maxURLLength = try reader.int(limitValue, path, 16...65_536)
                    case "max_body_bytes": configuration.limits.maxBodyBytes = try reader.int(limitValue, path, 0...(1 << 30))
                    case "deadline": configuration.limits.deadline = try reader.seconds(limitValue, path, allowZero: false)
                    case "max_in_flight": configuration.limits.maxInFlight = try reader.int(limitValue, path, 1...100_000)
                    case "retry_after": configuration.limits.retryAfter = try reader.int(limitValue, path, 0...86_400)
                    case "idle_timeout": configuration.limits.idleTimeout = try reader.seconds(limitValue, path, allowZero: true)
                    case "backlog": configuration.limits.backlog = try reader.int(limitValue, path, 1...65_535)
                    case "max_connections": configuration.limits.maxConnections = try reader.int(limitValue, path, 0...1_000_000)
                    default:
                        throw reader.problem(path, "unknown limit (expected max_size, max_overlays, max_url_length, "
                                             + "max_body_bytes, deadline, max_in_flight, retry_after, idle_timeout, backlog, max_connections)")
                    }
                }
            default:
                throw reader.problem(key, "unknown key (expected host, port, styles, cache_control, cache_dir, "
                                     + "tile_memory, watch_interval, limits)")
            }
        }
        return configuration
    }

    /// Adds or replaces the style served as `name` (the command line's `--style NAME=FILE`).
    public mutating func setStyle(_ argument: String) throws(ServeConfigurationError) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw ServeConfigurationError("--style '\(argument.messageExcerpt)': expected NAME=FILE, e.g. --style osm=Styles/osm.yaml")
        }
        let name = String(argument[..<equals]), file = String(argument[argument.index(after: equals)...])
        try Self.checkStyleName(name, where: "--style '\(argument.messageExcerpt)'")
        guard !file.isEmpty else { throw ServeConfigurationError("--style '\(argument.messageExcerpt)': no style file after =") }
        let entry = StyleEntry(name: name, file: file)
        if let index = styles.firstIndex(where: { $0.name == name }) { styles[index] = entry } else { styles.append(entry) }
    }

    /// Style names are one URL path segment of letters, digits, `-`, `_` and `.` (not `.` or `..`).
    static func checkStyleName(_ name: String, where place: String) throws(ServeConfigurationError) {
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard !name.isEmpty, allowed, name != ".", name != ".." else {
            throw ServeConfigurationError("\(place): style name '\(name.messageExcerpt)' must be letters, digits, -, _ and . (not . or ..)")
        }
    }

    private static func resolve(_ file: String, against folder: URL) -> String {
        if file.hasPrefix("/") || BuiltInStyle.named(file) != nil && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) {
            return file
        }
        return folder.appendingPathComponent(file).standardizedFileURL.path
    }

    /// Reads scalar values, with messages naming the file and key.
    private struct KeyReader {
        let file: String

        func problem(_ key: String, _ message: String) -> ServeConfigurationError {
            ServeConfigurationError("\(file): \(key): \(message)")
        }

        func string(_ node: Node, _ key: String) throws(ServeConfigurationError) -> String {
            guard let value = node.scalar?.string else { throw problem(key, "expected a text value") }
            return value
        }

        func headerValue(_ node: Node, _ key: String) throws(ServeConfigurationError) -> String {
            let value = try string(node, key)
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
                throw problem(key, "expected printable ASCII (an HTTP header value)")
            }
            return value
        }

        func int(_ node: Node, _ key: String, _ range: ClosedRange<Int>) throws(ServeConfigurationError) -> Int {
            guard let value = node.scalar.flatMap({ Int($0.string) }), range.contains(value) else {
                throw problem(key, "expected a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return value
        }

        func seconds(_ node: Node, _ key: String, allowZero: Bool) throws(ServeConfigurationError) -> Double {
            guard let text = node.scalar?.string, let value = StyleQuantity.seconds(text), value <= 86_400,
                  allowZero ? value >= 0 : value > 0 else {
                throw problem(key, "expected a duration such as 20s or 2m (at most 1d\(allowZero ? "" : ", above 0"))")
            }
            return value
        }
    }
}

/// A configuration that cannot be used, with the file and key at fault.
public struct ServeConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
