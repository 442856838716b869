import Foundation
import MapComposeTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `mapcompose serve` process on 127.0.0.1 at a port it picks, with what it prints collected.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let folder: URL
    private(set) var port = 0
    private let out = Pipe(), err = Pipe()
    private let lock = NSLock()
    private var outText = "", errText = ""

    static var binary: URL { TestPaths.productsFolder.appendingPathComponent("mapcompose") }

    /// Starts `mapcompose serve ARGUMENTS --host 127.0.0.1 --port 0` in `folder` and waits until it
    /// listens and then, unless `ready` is false, until `/ready` says every style has loaded (the
    /// styles load after the listener opens: a request before that finds no style).
    init(_ arguments: [String], in folder: URL, timeout: Double = 120, ready: Bool = true) throws {
        self.folder = folder
        process.executableURL = Self.binary
        process.arguments = ["serve"] + arguments + ["--host", "127.0.0.1", "--port", "0"]
        process.currentDirectoryURL = folder
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.outText += String(decoding: data, as: UTF8.self) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.errText += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let match = stdout.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/), let port = Int(match.1) {
                self.port = port
                while ready, Date() < end, process.isRunning {
                    if (try? get("/ready", timeout: 5))?.status == 200 { break }
                    usleep(20_000)
                }
                return
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw ServeFailure("the server did not start: status \(process.isRunning ? -1 : process.terminationStatus)\n\(stderr)")
    }

    var stdout: String { lock.withLock { outText } }
    var stderr: String { lock.withLock { errText } }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end (at most `timeout` seconds) and returns its exit status.
    func wait(timeout: Double = 120) -> Int32? {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < end { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// Waits until `condition` holds of the server's standard error, at most `timeout` seconds.
    func waitForLog(timeout: Double = 120, _ condition: (String) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition(stderr) { return true }
            usleep(20_000)
        }
        return false
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
    }

    func get(_ target: String, headers: [String: String] = [:], timeout: Double = 600) throws -> HTTPAnswer {
        try HTTPProbe.request(port: port, target: target, headers: headers, timeout: timeout)
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP answer: status, headers (names lower-cased) and body.
struct HTTPAnswer {
    let status: Int
    let headers: [String: String]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
}

/// HTTP/1.1 over a plain socket to 127.0.0.1: the request target goes out byte for byte (no
/// client normalises `..` or escapes), and `Connection: close` ends the answer.
enum HTTPProbe {
    static func request(port: Int, method: String = "GET", target: String, headers: [String: String] = [:],
                        body: Data? = nil, timeout: Double = 600) throws -> HTTPAnswer {
        let fd = try connect(port: port)
        defer { close(fd) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if let body { bytes.append(body) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try parse(received)
    }

    /// A socket connected to 127.0.0.1:`port`.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeFailure("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ServeFailure("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        return fd
    }

    static func parse(_ data: Data) throws -> HTTPAnswer {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw ServeFailure("no HTTP head in \(data.count) bytes") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ServeFailure("bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return HTTPAnswer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var result = Data(), rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd.upperBound
            result.append(rest[start..<start + size])
            rest = rest[(start + size + 2)...]
        }
        return result
    }
}

/// A folder with a style over the MBTiles fixture and a configuration serving it as `ne`.
struct ServeFixture {
    let folder: TemporaryFolder
    var url: URL { folder.url }

    static let style = """
        name: natural-earth
        background: "#aad3df"
        attribution: "Natural Earth"
        layers:
          - id: base
            source: {type: mbtiles, path: \(TestPaths.fixture("Reference/naturalearth.mbtiles").path)}
        """

    /// `extra` follows the `ne` style under `styles:` (more styles, then other keys at the top);
    /// `limits` are lines under `limits:`. Style files are watched every 200 ms unless `extra` says otherwise.
    init(limits: String = "", extra: String = "") throws {
        folder = try TemporaryFolder("mapcompose-serve")
        try folder.write(Self.style, to: "ne.yaml")
        try folder.write("""
            cache_control: "public, max-age=60"
            cache_dir: cache
            styles:
              ne: ne.yaml
            \(extra)
            \(extra.contains("watch_interval") ? "" : "watch_interval: 200ms")
            limits:
              deadline: 600s
            \(limits)
            """, to: "serve.yaml")
    }

    func start(_ more: [String] = []) throws -> ServeProcess {
        try ServeProcess(["--config", "serve.yaml"] + more, in: folder.url)
    }
}
