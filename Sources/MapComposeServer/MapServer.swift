import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MapComposeCore
import NIOCore
import ServiceLifecycle

/// `mapcompose serve`: static maps, composited XYZ tiles and TileJSON for each configured
/// style, with health, readiness, Prometheus metrics and a small viewer page. One tile store,
/// disk cache, CPU pool and per-host health serve every request.
public final class MapServer: Sendable {
    let configuration: ServeConfiguration
    let styles: StyleRegistry
    let store: TileStore
    let remote: RemoteEnvironment
    let metrics = ServeMetrics()
    let writer: StaticMapWriter
    let logger: Logger
    let accessLog: Logger
    private let state = ServerState()
    private let openConnections = ConnectionCount()

    public init(configuration: ServeConfiguration, remote: RemoteEnvironment, logger: Logger) {
        self.configuration = configuration
        self.remote = remote
        self.logger = logger
        var access = Logger(label: "mapcompose.access")
        access.logLevel = .info
        accessLog = access
        store = TileStore(memoryBudget: configuration.tileMemory << 20)
        styles = StyleRegistry(entries: configuration.styles, remote: remote, logger: logger)
        writer = StaticMapWriter(store: store, logger: logger)
    }

    /// Serves until SIGTERM or SIGINT (then stops accepting, finishes the requests in flight and
    /// returns); SIGHUP reloads the styles. `listening` is called with the bound address.
    public func run(listening: @escaping @Sendable (String, Int) -> Void) async throws {
        let idle = configuration.limits.idleTimeout
        let idleTimeout: TimeAmount? = idle > 0 ? .milliseconds(Int64((idle * 1000).rounded(.up))) : nil
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { [self] request, _ in await respond(to: request) },
            server: .http1(configuration: .init(additionalChannelHandlers: self.connectionBound(), idleTimeout: idleTimeout)),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: "mapcompose", backlog: configuration.limits.backlog),
            onServerRunning: { channel in
                listening(channel.localAddress?.ipAddress ?? "?", channel.localAddress?.port ?? 0)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let signals = SignalPipe.install([SIGTERM, SIGINT, SIGHUP])
        let signalTask = Task.detached { [self] in
            for await signal in signals.signals {
                if signal == SIGHUP {
                    logger.info("SIGHUP: reloading styles")
                    styles.loadAll()
                } else {
                    logger.info("stopping: finishing the requests in flight", metadata: ["signal": "\(signal)"])
                    state.draining = true
                    await group.triggerGracefulShutdown()
                }
            }
        }
        let watchTask = Task.detached { [self] in
            styles.loadAll()
            let interval = configuration.watchInterval
            guard interval > 0 else { return }
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(interval * 1000)))
                if Task.isCancelled { break }
                styles.reloadChanged()
            }
        }
        defer {
            watchTask.cancel()
            signalTask.cancel()
        }
        try await group.run()
    }

    /// The handler that enforces `limits.max_connections` on each new connection (none without a bound).
    private func connectionBound() -> [any RemovableChannelHandler] {
        let limit = configuration.limits.maxConnections
        guard limit > 0 else { return [] }
        return [ConnectionBound(limit: limit, open: openConnections, logger: logger)]
    }

    // MARK: - Dispatch

    /// Answers one request; every refusal is a JSON error, and nothing a client sends gives a 5xx.
    func respond(to request: Request) async -> Response {
        let started = ContinuousClock.now
        var route = "other"
        let response: Response
        do {
            response = try await dispatch(request, route: &route)
        } catch {
            response = Self.problemResponse(error)
        }
        let status = response.status.code
        metrics.request(route: route, status: status)
        accessLog.info("request", metadata: [
            "method": "\(request.method.rawValue)",
            "target": "\(Self.loggable(request.uri.string).messageExcerpt)",
            "route": "\(route)",
            "status": "\(status)",
            "ms": "\((ContinuousClock.now - started).milliseconds)",
        ])
        return response
    }

    /// The request target as logged: the value of a query's `access_token` (which Mapbox
    /// clients send) is left out.
    static func loggable(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            pair.lowercased().hasPrefix("access_token=") ? "access_token=…" : String(pair)
        }
        return target[...mark] + query.joined(separator: "&")
    }

    private func dispatch(_ request: Request, route: inout String) async throws(ServeProblem) -> Response {
        let limits = configuration.limits
        let target = request.uri.string
        if target.utf8.count > limits.maxURLLength {
            throw ServeProblem(.uriTooLong, "the request target is \(target.utf8.count) bytes, over the limit of "
                               + "\(limits.maxURLLength) (limits.max_url_length)", parameter: "url")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.maxBodyBytes {
            throw ServeProblem(.contentTooLarge, "a request body of \(length) bytes is over the limit of "
                               + "\(limits.maxBodyBytes) (limits.max_body_bytes)", parameter: "body")
        }
        if request.headers[.transferEncoding] != nil, limits.maxBodyBytes == 0 {
            throw ServeProblem(.contentTooLarge, "no endpoint takes a request body (limits.max_body_bytes is 0)", parameter: "body")
        }
        guard request.method == .get || request.method == .head else {
            throw ServeProblem(.methodNotAllowed, "only GET and HEAD are served", parameter: "method")
        }
        let rawPath = request.uri.path
        // Segments are decoded one by one: an encoded slash stays inside its segment, and a
        // segment that is `.` or `..` (however written) matches nothing.
        var segments: [String] = []
        for raw in rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let segment = String(raw).removingPercentEncoding, !segment.contains("/"), segment != ".", segment != ".." else {
                throw .notFound()
            }
            segments.append(segment)
        }
        if segments == ["wms"] {
            route = "wms"
            return await wms(request)
        }
        let query = try QueryParameters(request.uri.query)
        switch segments.first ?? "" {
        case "":
            guard segments.count <= 1 else { throw .notFound() }
            route = "index"
            return html(ViewerPage.index(styles: styles.entries.map(\.name)))
        case "health":
            guard segments.count == 1 else { throw .notFound() }
            route = "health"
            return json(#"{"status":"ok"}"#)
        case "ready":
            guard segments.count == 1 else { throw .notFound() }
            route = "ready"
            let ready = styles.allLoaded && !state.draining
            return json(ready ? #"{"ready":true}"# : #"{"ready":false}"#, status: ready ? .ok : .serviceUnavailable)
        case "metrics":
            guard segments.count == 1 else { throw .notFound() }
            route = "metrics"
            let text = metrics.scrape(store: store, health: remote.clientIfMade?.health)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        case "styles":
            return try await styleRoute(Array(segments.dropFirst()), query, request, route: &route)
        default:
            throw .notFound()
        }
    }

    private func styleRoute(_ parts: [String], _ query: QueryParameters, _ request: Request,
                            route: inout String) async throws(ServeProblem) -> Response {
        if parts.count >= 5, parts[0] == "v1", parts[3] == "static" {
            route = "mapbox-static"
            guard let (entry, loaded) = styles.style(parts[2]) else { throw .notFound("no style '\(parts[2].messageExcerpt)' is served") }
            var path = try MapboxStaticPath(Array(parts.dropFirst(4)), maxOverlays: configuration.limits.maxOverlays)
            if let padding = try query.single("padding") {
                guard let value = Int(padding) else { throw .badParameter("padding '\(padding.messageExcerpt)': expected a number", "padding") }
                path.arguments.padding = value
            }
            let attribution = try query.single("attribution") != "false"
            return try await staticMap(entry, loaded, .png, path.arguments, quality: 90, geojson: path.geojson,
                                       attribution: attribution, request)
        }
        guard let name = parts.first, let (entry, loaded) = styles.style(name) else {
            throw .notFound(parts.first.map { "no style '\($0.messageExcerpt)' is served" } ?? "no such resource")
        }
        let rest = Array(parts.dropFirst())
        switch rest.count {
        case 0:
            route = "viewer"
            return html(ViewerPage.viewer(style: name))
        case 1 where rest[0].isEmpty || rest[0] == "index.html":
            route = "viewer"
            return html(ViewerPage.viewer(style: name))
        case 1 where rest[0] == "tiles.json":
            route = "tilejson"
            return json(tileJSON(name, loaded.style, request))
        case 1 where rest[0].hasPrefix("static."):
            route = "static"
            guard let format = ImageFormat(pathExtension: String(rest[0].dropFirst(7))), !format.isVector else {
                throw .notFound("static maps are static.png, static.jpg or static.webp")
            }
            let parsed = try StaticMapQuery(query, maxOverlays: configuration.limits.maxOverlays)
            return try await staticMap(entry, loaded, format, parsed.arguments, quality: parsed.quality, geojson: [],
                                       attribution: true, request)
        case 4 where rest[0] == "tiles":
            route = "tile"
            let address = try TileAddress(z: rest[1], x: rest[2], y: rest[3])
            return try await tile(entry, loaded, address, request)
        default:
            throw .notFound()
        }
    }

    // MARK: - Images

    /// A static map of `arguments`; `geojson` documents are drawn as `--overlay` files are.
    private func staticMap(_ entry: ServeConfiguration.StyleEntry, _ loaded: StyleRegistry.Loaded, _ format: ImageFormat,
                           _ arguments: MapArguments, quality: Int, geojson: [Data], attribution: Bool,
                           _ request: Request) async throws(ServeProblem) -> Response {
        let spelling = ArgumentSpelling.query
        let renderRequest: RenderRequest
        do {
            let dimensions = try arguments.dimensions(spelling)
            try checkSize(dimensions, scale: arguments.scale)
            let area = try arguments.area(spelling)
            var overlays = try arguments.overlays.overlays(spelling, iconFiles: { name throws(OverlayError) in
                throw OverlayError("icon files are not served (icon '\(name.messageExcerpt)')")
            })
            // Drawn where GeoJSON files are: above polygons and circles, below the rest.
            var position = arguments.overlays.polygons.count + arguments.overlays.circles.count
            for document in geojson {
                let shapes: [Overlay]
                do { shapes = try GeoJSONOverlay.overlays(from: document) } catch {
                    throw ServeProblem.badParameter("geojson overlay: \(error.reason)", "overlay")
                }
                overlays.insert(contentsOf: shapes, at: position)
                position += shapes.count
            }
            var candidate = RenderRequest(style: loaded.style, area: area, width: dimensions.width, height: dimensions.height,
                                          scale: arguments.scale, format: format, quality: quality, output: "-",
                                          attribution: attribution, overlays: overlays)
            _ = try arguments.viewport(area, dimensions, overlays: candidate.allOverlays, spelling)
            candidate.deadline = renderDeadline(loaded.style)
            renderRequest = candidate
        } catch let problem as ArgumentProblem {
            throw .badParameter(problem.message, problem.parameter)
        } catch let problem as ServeProblem {
            throw problem
        } catch {
            throw .badParameter("\(error)", "query")
        }
        return try await image(renderRequest, entry, request)
    }

    private func tile(_ entry: ServeConfiguration.StyleEntry, _ loaded: StyleRegistry.Loaded, _ address: TileAddress,
                      _ request: Request) async throws(ServeProblem) -> Response {
        var renderRequest = RenderRequest(style: loaded.style, area: .center(address.center, zoom: Double(address.z)),
                                          width: 256, height: 256, scale: address.scale, format: address.format,
                                          output: "-", attribution: false)
        renderRequest.deadline = renderDeadline(loaded.style)
        return try await image(renderRequest, entry, request)
    }

    /// The style's own deadline when shorter than the server's.
    func renderDeadline(_ style: MapStyle) -> Double {
        min(style.document.deadline ?? configuration.limits.deadline, configuration.limits.deadline)
    }

    /// Refuses an output over `limits.max_size` device pixels a side before any work.
    func checkSize(_ dimensions: (width: Int, height: Int), scale: Double) throws(ServeProblem) {
        let maxSize = configuration.limits.maxSize
        let width = Double(dimensions.width) * scale, height = Double(dimensions.height) * scale
        guard width <= Double(maxSize), height <= Double(maxSize) else {
            let parameter = Double(max(dimensions.width, dimensions.height)) > Double(maxSize) ? "size" : "scale"
            throw .badParameter("an image of \(width.exactText)x\(height.exactText) pixels (size × scale) is over the limit "
                                + "of \(maxSize) pixels a side (limits.max_size)", parameter)
        }
    }

    /// Renders `renderRequest` (within the bound on renders in flight) and answers with the
    /// image, its ETag and Cache-Control, or 304 when the client holds it already.
    func image(_ renderRequest: RenderRequest, _ entry: ServeConfiguration.StyleEntry,
                       _ request: Request) async throws(ServeProblem) -> Response {
        let limits = configuration.limits
        guard let running = state.beginRender(limit: limits.maxInFlight) else {
            throw ServeProblem(.serviceUnavailable, "\(limits.maxInFlight) renders are running (limits.max_in_flight); "
                               + "try again shortly", parameter: nil, retryAfter: limits.retryAfter)
        }
        metrics.renders(inFlight: running)
        let started = ContinuousClock.now
        let result: (image: Data, report: RenderReport)
        do {
            result = try await writer.render(renderRequest)
        } catch {
            metrics.renders(inFlight: state.endRender())
            switch error.kind {
            case .badRequest: throw .badParameter(error.message, "query")
            case .tileProblems, .renderFailed: throw ServeProblem(.badGateway, error.message)
            }
        }
        metrics.renders(inFlight: state.endRender())
        metrics.rendered(in: ContinuousClock.now - started)
        let etag = "\"\(ContentDigest.hex(of: result.image))-\(result.image.count)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: entry.cacheControl ?? configuration.cacheControl]
        if let asked = request.headers[.ifNoneMatch], Self.matches(asked, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = renderRequest.format.mediaType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.image)))
    }

    /// Whether an If-None-Match value names `etag` (or is `*`); weak tags compare equal too.
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    // MARK: - Documents

    private func tileJSON(_ name: String, _ style: MapStyle, _ request: Request) -> String {
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        let base = "http://\(host)/styles/\(name)"
        var object: [String: Any] = [
            "tilejson": "3.0.0",
            "name": style.document.name,
            "tiles": ["\(base)/tiles/{z}/{x}/{y}.png"],
            "minzoom": 0,
            "maxzoom": TileAddress.maxZoom,
            "bounds": [-180, -85.0511287798066, 180, 85.0511287798066],
            "center": [0, 0, 2],
            "scheme": "xyz",
            "format": "png",
        ]
        if let attribution = style.document.attribution { object["attribution"] = attribution }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func problemResponse(_ problem: ServeProblem) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter = problem.retryAfter { headers[.retryAfter] = "\(retryAfter)" }
        return Response(status: problem.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: problem.body)))
    }
}

/// What the requests share that changes: renders in flight and whether the server is stopping.
final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var renders = 0
    private var stopping = false

    var draining: Bool {
        get { lock.withLock { stopping } }
        set { lock.withLock { stopping = newValue } }
    }

    /// Takes a render slot; nil when `limit` are taken. Returns the renders now running.
    func beginRender(limit: Int) -> Int? {
        lock.withLock {
            guard renders < limit else { return nil }
            renders += 1
            return renders
        }
    }

    /// Gives a render slot back; returns the renders now running.
    func endRender() -> Int {
        lock.withLock {
            renders -= 1
            return renders
        }
    }
}

extension ImageFormat {
    /// The HTTP media type of the format.
    var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        }
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// Counts the open connections; one that opens past the bound is closed as it becomes active, so
/// neither its requests nor its bytes reach the responder.
final class ConnectionBound: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    /// Reads pass through untouched (the default `channelRead` forwards them).
    typealias InboundIn = NIOAny
    let limit: Int
    let open: ConnectionCount
    let logger: Logger
    private var counted = false

    init(limit: Int, open: ConnectionCount, logger: Logger) {
        self.limit = limit
        self.open = open
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func admit(context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        let count = open.add(1)
        if count > limit {
            logger.debug("closing a connection past limits.max_connections", metadata: ["open": "\(count - 1)"])
            context.close(promise: nil)
        }
    }

    private func release() {
        guard counted else { return }
        counted = false
        _ = open.add(-1)
    }
}

/// The connections open now, shared by every connection's `ConnectionBound`.
final class ConnectionCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Adds `delta` and returns the new count.
    func add(_ delta: Int) -> Int {
        lock.withLock {
            value += delta
            return value
        }
    }
}
