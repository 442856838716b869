import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends what it is told, when it is told.
final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = try HTTPProbe.connect(port: port)
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether the server has closed the connection (it reads as ended, or reset), without waiting.
    var closedByServer: Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Polls `connections` for at most 5 s until the server has closed all of them; returns how many it closed.
    static func waitUntilClosed(_ connections: [RawConnection]) -> Int {
        var closed = 0
        for _ in 0..<50 {
            usleep(100_000)
            closed = connections.filter(\.closedByServer).count
            if closed == connections.count { break }
        }
        return closed
    }

    /// Reads one answer: its head, then as many body bytes as Content-Length says (none if absent),
    /// giving up after `timeout` seconds.
    func readAnswer(timeout: Double) throws -> HTTPAnswer {
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let split = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).lowercased()
                let length = head.firstMatch(of: /content-length: *(\d+)/).flatMap { Int($0.1) } ?? 0
                if received.count - split.upperBound >= length { break }
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try HTTPProbe.parse(received)
    }
}

/// Clients that hold connections, declare huge bodies, and sources that never answer.
@Suite(.serialized) struct ServeHostileClientTests {
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func idleConnectionsDoNotStopOthersAndAreClosed() throws {
        let fixture = try ServeFixture(limits: "  idle_timeout: 3s\n")
        let server = try fixture.start()
        #expect(try server.get("/styles/ne/tiles/2/2/1.png").status == 200)
        // 1,000 slowloris clients: part of a request line, then nothing.
        var held: [RawConnection] = []
        let opening = ContinuousClock.now
        for _ in 0..<1000 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /styles/ne/tiles/2/2/1.png HT")
            held.append(connection)
        }
        print("1000 connections opened in \(ContinuousClock.now - opening)")
        usleep(500_000)   // held, not a burst still being accepted
        var answer: HTTPAnswer?
        let elapsed = try seconds { answer = try server.get("/styles/ne/tiles/2/2/1.png", timeout: 5) }
        print("a tile with 1000 idle connections held: \(String(format: "%.3f", elapsed)) s")
        #expect(answer?.status == 200)
        #expect(elapsed < 1, "a tile took \(elapsed) s with 1000 idle connections held")
        let early = held.filter(\.closedByServer).count
        #expect(early == 0, "\(early) held connections closed \(ContinuousClock.now - opening) after the first opened, before the idle timeout")
        // After idle_timeout, the server has closed them.
        let closed = RawConnection.waitUntilClosed(held)
        #expect(closed == held.count, "\(closed) of \(held.count) idle connections closed after limits.idle_timeout")
        #expect(try server.get("/health").status == 200)
    }

    @Test func connectionsPastMaxConnectionsAreClosed() throws {
        let fixture = try ServeFixture(limits: "  max_connections: 4\n")
        let server = try fixture.start()
        // A connection kept open after one answered request: the server has certainly counted it.
        // (A connection just closed may still be counted for a moment: retry until one is answered.)
        func keptOpen() throws -> RawConnection? {
            for _ in 0..<50 {
                let connection = try RawConnection(port: server.port)
                connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if (try? connection.readAnswer(timeout: 5))?.status == 200 { return connection }
                usleep(100_000)
            }
            return nil
        }
        // Three held connections: within the bound of four, and a request on a fourth is answered.
        var held: [RawConnection] = []
        for _ in 0..<3 { held.append(try #require(try keptOpen())) }
        #expect(try server.get("/styles/ne/tiles/2/2/1.png", timeout: 10).status == 200)
        // With a fourth held, the bound is reached: connections opened past it are closed.
        held.append(try #require(try keptOpen()))
        var extra: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            extra.append(connection)
        }
        let closed = RawConnection.waitUntilClosed(extra)
        #expect(closed == extra.count, "\(closed) of \(extra.count) connections past limits.max_connections closed")
        #expect(held.filter(\.closedByServer).isEmpty, "a connection within limits.max_connections was closed")
        // The held ones are still served.
        held[0].send("GET /styles/ne/tiles/2/2/1.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try held[0].readAnswer(timeout: 10).status == 200)
        // Once one closes, a new connection is within the bound again.
        held.removeLast()
        extra.removeAll()
        var answer: HTTPAnswer?
        for _ in 0..<50 {
            answer = try? server.get("/health", timeout: 5)
            if answer?.status == 200 { break }
            usleep(100_000)
        }
        #expect(answer?.status == 200)
    }

    @Test func aGigabyteBodyIsRefusedBeforeItIsSent() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        for method in ["POST", "GET"] {
            let connection = try RawConnection(port: server.port)
            connection.send("\(method) /styles/ne/static.png?center=1,1&zoom=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Content-Type: application/octet-stream\r\nContent-Length: 1073741824\r\n\r\n")
            var answer: HTTPAnswer?
            let elapsed = try seconds { answer = try connection.readAnswer(timeout: 5) }
            #expect(answer?.status == 413, "\(method): \(answer?.text ?? "")")
            #expect(answer?.json["parameter"] as? String == "body")
            #expect(elapsed < 2, "refused from the headers, no body sent: \(elapsed) s")
        }
        #expect(try server.get("/health").status == 200)
    }

    @Test func aSourceThatNeverAnswersIsCutAtTheDeadlineAndStarvesNoOne() throws {
        let upstream = try TestHTTPServer { _ in .delayed(60, .status(200)) }
        defer { upstream.shutdown() }
        let fixture = try ServeFixture()
        try fixture.folder.write("""
            background: "#336699"
            layers:
              - id: hanging
                source: {type: xyz, url: "\(upstream.baseURL)/{z}/{x}/{y}.png", retries: 0}
            """, to: "hang.yaml")
        try fixture.folder.write("""
            styles:
              ne: ne.yaml
              hang: hang.yaml
            limits:
              deadline: 1s
            """, to: "hang-serve.yaml")
        let server = try ServeProcess(["--config", "hang-serve.yaml", "--no-cache"], in: fixture.url)
        #expect(try server.get("/styles/ne/tiles/2/2/1.png").status == 200)
        // Eight requests for the hanging style at once; meanwhile the local style answers fast.
        let hanging = (0..<8).map { index in
            InBackground { () throws -> (Int, Double) in
                let start = ContinuousClock.now
                let answer = try HTTPProbe.request(port: server.port, target: "/styles/hang/tiles/3/\(index)/3.png", timeout: 30)
                let elapsed = ContinuousClock.now - start
                return (answer.status, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
        usleep(200_000)
        var local: [Double] = []
        for (x, y) in [(1, 1), (2, 2), (3, 1), (0, 1), (1, 2)] {
            var answer: HTTPAnswer?
            local.append(try seconds { answer = try server.get("/styles/ne/tiles/2/\(x)/\(y).png", timeout: 5) })
            #expect(answer?.status == 200)
        }
        let cut = try hanging.map { try $0.result() }
        print("hanging source: answers \(cut.map(\.0)) in \(cut.map { String(format: "%.2f", $0.1) }) s; "
              + "local tiles meanwhile in \(local.map { String(format: "%.3f", $0) }) s")
        #expect(local.allSatisfy { $0 < 1 }, "local tiles while a source hangs: \(local)")
        for (status, elapsed) in cut {
            #expect(status == 200 || status == 502, "answered, by fallback or as a bad gateway: \(status)")
            #expect(elapsed < 4, "held \(elapsed) s past the 1 s deadline")
        }
        #expect(upstream.requests.count >= 1, "the source was asked")
    }
}
