import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests: each request is answered by
/// the handler's script, counted and logged, and faults can be injected (delays, truncated
/// bodies, connection resets, conditional answers).
public final class TestHTTPServer: @unchecked Sendable {
    /// One request as the server saw it.
    public struct Request: Sendable {
        public let method: String
        /// The path, without the query.
        public let path: String
        /// The query string (without `?`).
        public let query: String
        /// Header names in lower case.
        public let headers: [String: String]
        /// The Host header or the absolute-form target's host, as the client sent it.
        public let target: String
        /// Seconds (system uptime) when the request arrived.
        public let received: Double

        /// The query's parameters, names upper-cased (WMS parameters are case-insensitive).
        public var parameters: [String: String] {
            var result: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let name = parts[0].removingPercentEncoding ?? parts[0]
                result[name.uppercased()] = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
            }
            return result
        }
    }

    /// How to answer one request.
    public indirect enum Answer: Sendable {
        /// A complete response.
        case respond(status: Int, headers: [(String, String)], body: Data)
        /// `answer`, after `seconds`.
        case delayed(Double, Answer)
        /// Headers declaring `declaredLength` bytes, then only `body`, then the connection closed.
        case truncated(body: Data, declaredLength: Int)
        /// The connection closed without a response.
        case reset
        /// 304 when the request's If-None-Match is `etag`, else 200 with `body` and the ETag.
        case conditional(etag: String, body: Data, contentType: String, headers: [(String, String)])

        /// 200 with an image body.
        public static func image(_ data: Data, contentType: String = "image/png", headers: [(String, String)] = []) -> Answer {
            .respond(status: 200, headers: [("Content-Type", contentType)] + headers, body: data)
        }

        /// A status with an empty or text body.
        public static func status(_ code: Int, headers: [(String, String)] = [], body: String = "") -> Answer {
            .respond(status: code, headers: headers, body: Data(body.utf8))
        }
    }

    public typealias Handler = @Sendable (Request) -> Answer

    private let group: MultiThreadedEventLoopGroup
    private var channel: Channel?
    private let lock = NSLock()
    private var log: [Request] = []
    private var handler: Handler
    private var active = 0
    private var peak = 0
    private var notModified = 0

    /// The port the server listens on (127.0.0.1).
    public private(set) var port = 0

    public init(handler: @escaping Handler) throws {
        self.handler = handler
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(ScriptedHandler(server: self))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        self.channel = channel
        port = channel.localAddress?.port ?? 0
    }

    deinit { shutdown() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Replaces the script.
    public func setHandler(_ handler: @escaping Handler) {
        lock.withLock { self.handler = handler }
    }

    /// Every request so far, in arrival order.
    public var requests: [Request] { lock.withLock { log } }

    /// Requests so far whose path is `path`.
    public func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Arrival times (seconds) of the requests for `path`.
    public func requestTimes(path: String) -> [Double] { requests.filter { $0.path == path }.map(\.received) }

    /// Most requests being answered at one time so far.
    public var peakConcurrency: Int { lock.withLock { peak } }

    /// 304 answers sent so far.
    public var answered304: Int { lock.withLock { notModified } }

    /// Forgets the requests so far.
    public func resetLog() { lock.withLock { log.removeAll(); peak = active; notModified = 0 } }

    /// Stops listening and closes every connection.
    public func shutdown() {
        let channel = lock.withLock { () -> Channel? in
            defer { self.channel = nil }
            return self.channel
        }
        guard let channel else { return }
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    fileprivate func answer(_ request: Request) -> Answer {
        lock.withLock {
            log.append(request)
            active += 1
            peak = max(peak, active)
            return handler
        }(request)
    }

    /// A response ended (sent, cut off or refused) with `status`.
    fileprivate func finished(status: Int?) {
        lock.withLock {
            active -= 1
            if status == 304 { notModified += 1 }
        }
    }
}

/// Answers each request on one connection by the server's script.
private final class ScriptedHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let server: TestHTTPServer
    private var head: HTTPRequestHead?

    init(server: TestHTTPServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            var target = headers["host"] ?? ""
            var uri = head.uri
            if let absolute = URL(string: uri), let host = absolute.host, absolute.scheme != nil {
                target = host + (absolute.port.map { ":\($0)" } ?? "")
                uri = absolute.path + (absolute.query.map { "?\($0)" } ?? "")
            }
            let parts = uri.split(separator: "?", maxSplits: 1).map(String.init)
            let request = TestHTTPServer.Request(method: "\(head.method)", path: parts.first ?? "/",
                                                 query: parts.count > 1 ? parts[1] : "", headers: headers, target: target,
                                                 received: ProcessInfo.processInfo.systemUptime)
            perform(server.answer(request), request: request, keepAlive: head.isKeepAlive, context: context)
        }
    }

    private func perform(_ answer: TestHTTPServer.Answer, request: TestHTTPServer.Request, keepAlive: Bool,
                         context: ChannelHandlerContext) {
        switch answer {
        case .respond(let status, let headers, let body):
            write(status: status, headers: headers, body: body, declaredLength: body.count, keepAlive: keepAlive, context: context)
        case .delayed(let seconds, let next):
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                let context = loopBound.value
                guard context.channel.isActive else {
                    self.server.finished(status: nil)
                    return
                }
                self.perform(next, request: request, keepAlive: keepAlive, context: context)
            }
        case .truncated(let body, let declaredLength):
            write(status: 200, headers: [("Content-Type", "image/png")], body: body, declaredLength: declaredLength,
                  keepAlive: false, context: context, end: false)
            context.close(promise: nil)
        case .reset:
            server.finished(status: nil)
            context.close(promise: nil)
        case .conditional(let etag, let body, let contentType, let headers):
            if request.headers["if-none-match"] == etag {
                write(status: 304, headers: [("ETag", etag)] + headers, body: Data(), declaredLength: 0, keepAlive: keepAlive,
                      context: context)
            } else {
                write(status: 200, headers: [("Content-Type", contentType), ("ETag", etag)] + headers, body: body,
                      declaredLength: body.count, keepAlive: keepAlive, context: context)
            }
        }
    }

    private func write(status: Int, headers: [(String, String)], body: Data, declaredLength: Int, keepAlive: Bool,
                       context: ChannelHandlerContext, end: Bool = true) {
        var responseHeaders = HTTPHeaders(headers)
        if status != 304 && status != 204 { responseHeaders.replaceOrAdd(name: "Content-Length", value: String(declaredLength)) }
        responseHeaders.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: responseHeaders)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        server.finished(status: status)
        guard end else {
            context.flush()
            return
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
