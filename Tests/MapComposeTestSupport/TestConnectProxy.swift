import Foundation
import NIOCore
import NIOPosix

/// An HTTP CONNECT proxy on 127.0.0.1 for tests: it records the host each tunnel was asked
/// for and connects every tunnel to `upstreamPort` on 127.0.0.1, so nothing leaves the machine
/// whatever host the client named.
public final class TestConnectProxy: @unchecked Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel?
    private let lock = NSLock()
    private var asked: [String] = []
    public private(set) var port = 0

    public init(upstreamPort: Int) throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.addHandler(TunnelOpener(proxy: self, upstreamPort: upstreamPort))
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        self.channel = channel
        port = channel.localAddress?.port ?? 0
    }

    deinit {
        try? channel?.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// The `host:port` of each CONNECT so far.
    public var targets: [String] { lock.withLock { asked } }

    fileprivate func record(_ target: String) { lock.withLock { asked.append(target) } }
}

/// Reads the CONNECT request, opens the upstream connection and glues the two together.
private final class TunnelOpener: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let proxy: TestConnectProxy
    let upstreamPort: Int
    private var header = ByteBuffer()

    init(proxy: TestConnectProxy, upstreamPort: Int) {
        self.proxy = proxy
        self.upstreamPort = upstreamPort
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        header.writeBuffer(&bytes)
        let text = String(decoding: header.readableBytesView, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return }
        let words = text[..<end.lowerBound].split(separator: " ")
        guard words.count >= 2, words[0] == "CONNECT" else {
            context.close(promise: nil)
            return
        }
        proxy.record(String(words[1]))
        let client = context.channel
        let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop).connect(host: "127.0.0.1", port: upstreamPort).whenComplete { result in
            let (context, opener) = bound.value
            switch result {
            case .failure:
                context.close(promise: nil)
            case .success(let upstream):
                let (near, far) = Glue.pair()
                _ = try? client.pipeline.syncOperations.addHandler(near)
                _ = try? upstream.pipeline.syncOperations.addHandler(far)
                context.writeAndFlush(opener.wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n")),
                                      promise: nil)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
        }
    }
}

/// Copies bytes between two channels, closing each when the other closes.
private final class Glue: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: Glue?
    private var context: ChannelHandlerContext?

    static func pair() -> (Glue, Glue) {
        let a = Glue(), b = Glue()
        a.partner = b
        b.partner = a
        return (a, b)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil; partner = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.send(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.closeFromPartner()
    }

    private func send(_ buffer: ByteBuffer) {
        guard let context else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            bound.value.writeAndFlush(NIOAny(buffer), promise: nil)
        }
    }

    private func closeFromPartner() {
        guard let context else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.execute { bound.value.close(promise: nil) }
    }
}
