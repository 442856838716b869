import Foundation

/// Debian's MapProxy serving a configuration on 127.0.0.1 (`scripts/reference/serve_mapproxy.py`),
/// started for a test and stopped when released.
public final class MapProxyServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let folder: TemporaryFolder

    /// Why the server did not start.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts MapProxy with `config` (YAML text) and waits until it listens.
    public init(config: String) throws {
        folder = try TemporaryFolder()
        let file = try folder.write(config, to: "mapproxy.yaml")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestPaths.repositoryRoot.appendingPathComponent("scripts/reference/serve_mapproxy.py").path, file.path]
        // Errors go to a file: a pipe nobody reads could fill and stall the server.
        let errorLog = folder.url.appendingPathComponent("mapproxy.log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        // The first line is `serving PORT`; anything else means MapProxy did not start.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("serving "), let port = Int(text.dropFirst(8)) else {
            Self.stop(process)
            let message = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            throw Unavailable(description: "MapProxy did not start (install Debian's python3-mapproxy): \(message.suffix(2000))")
        }
        self.port = port
    }

    deinit { Self.stop(process) }

    /// SIGKILL: the child inherits the test process's blocked signals, so SIGTERM may never arrive.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
