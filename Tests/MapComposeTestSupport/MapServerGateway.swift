import Foundation

/// Debian's MapServer (`mapserv`) as a WMS on 127.0.0.1: a `TestHTTPServer` that hands each
/// request to the CGI binary, as a web server would, with the project's reference mapfile
/// (`scripts/reference/naturalearth.map`) over the committed Natural Earth countries.
public final class MapServerGateway: @unchecked Sendable {
    public let server: TestHTTPServer
    /// The mapfile, to be sent as the `MAP` parameter.
    public let mapfile: URL
    private let folder: TemporaryFolder

    /// Why the gateway cannot start.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public static var executable: String? {
        ["/usr/bin/mapserv", "/usr/lib/cgi-bin/mapserv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public init() throws {
        guard let executable = Self.executable else {
            throw Unavailable(description: "mapserv not found: install Debian's cgi-mapserver (scripts/install-deps.sh does)")
        }
        folder = try TemporaryFolder()
        // PROJ is never asked to project the poles: latitudes are clamped to ±88°, outside the
        // Web Mercator square (±85.05°), as the reference script does.
        let source = TestPaths.repositoryRoot.appendingPathComponent("Styles/data/ne_110m_countries.geojson")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: source))
        let countries = try folder.write(try JSONSerialization.data(withJSONObject: Self.clamped(json)), to: "countries.geojson")
        let template = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("scripts/reference/naturalearth.map"),
                                  encoding: .utf8)
        let mapfile = try folder.write(template.replacingOccurrences(of: "@COUNTRIES@", with: countries.path), to: "naturalearth.map")
        let escaped = mapfile.path.replacingOccurrences(of: ".", with: "\\.")
        let config = try folder.write("CONFIG\n  ENV\n    MS_MAP_PATTERN \"^\(escaped)$\"\n    MS_ERRORFILE \"stderr\"\n  END\nEND\n",
                                      to: "mapserver.conf")
        self.mapfile = mapfile
        server = try TestHTTPServer { request in
            Self.run(executable, query: request.query, config: config)
        }
    }

    /// Runs the CGI binary for one query and turns its output into an answer.
    static func run(_ executable: String, query: String, config: URL) -> TestHTTPServer.Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var environment = ["REQUEST_METHOD": "GET", "QUERY_STRING": query, "MAPSERVER_CONFIG_FILE": config.path,
                           "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        for key in ["PROJ_DATA", "PROJ_LIB", "GDAL_DATA"] { environment[key] = ProcessInfo.processInfo.environment[key] }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return .status(500, body: "mapserv did not start: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let separator = data.range(of: Data("\r\n\r\n".utf8)) else { return .status(500, body: "mapserv wrote no CGI header") }
        var status = 200
        var headers: [(String, String)] = []
        for line in String(decoding: data[..<separator.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0].lowercased() == "status" { status = Int(parts[1].prefix(3)) ?? 500 } else { headers.append((parts[0], parts[1])) }
        }
        return .respond(status: status, headers: headers, body: Data(data[separator.upperBound...]))
    }

    private static func clamped(_ value: Any) -> Any {
        if let list = value as? [Any] {
            let numbers = list.compactMap { $0 as? NSNumber }.map(\.doubleValue)
            if numbers.count == list.count, numbers.count >= 2 { return [numbers[0], min(88, max(-88, numbers[1]))] }
            return list.map(clamped)
        }
        if let object = value as? [String: Any] { return object.mapValues(clamped) }
        return value
    }
}
