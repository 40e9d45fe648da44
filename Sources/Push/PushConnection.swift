import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/2 connection over TLS to the push service, for one push certificate: each push is
/// a stream of its own (headers, then the body ending the stream), answered by a status and
/// perhaps a JSON reason. Many streams run at once; the service's own limit on concurrent
/// streams is kept by the HTTP/2 handler, which holds back streams beyond it.
final class PushConnection: Sendable {
    private let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    /// Why the connection ended, when it ended on an error (the service refused the certificate,
    /// say): what a push that was waiting on it reports, rather than "closed".
    private let ending: ConnectionEnding
    let authority: String

    /// What the service answered to one push.
    struct Answer: Sendable {
        let status: Int
        let body: ByteBuffer
    }

    enum Failure: Error, CustomStringConvertible {
        case noStatus
        case streamReset(HTTP2ErrorCode)
        case closedBeforeAnswer
        case timedOut

        var description: String {
            switch self {
            case .noStatus: "the push service answered without a status"
            case .streamReset(let code): "the push service reset the stream (\(code))"
            case .closedBeforeAnswer: "the connection to the push service closed before it answered"
            case .timedOut: "the push service did not answer in time"
            }
        }
    }

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer, ending: ConnectionEnding, authority: String) {
        self.channel = channel
        self.ending = ending
        self.multiplexer = multiplexer
        self.authority = authority
    }

    var isOpen: Bool { channel.isActive }

    static func connect(to endpoint: PushEndpoint, tls: NIOSSLContext, on group: any EventLoopGroup) async throws -> PushConnection {
        // Apple's service is named by host; a stand-in on an address is checked against that address.
        let sniName = endpoint.hostIsAddress ? nil : endpoint.host
        let ending = ConnectionEnding()
        return try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: sniName))
                    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: .init(), streamConfiguration: streamConfiguration,
                        // The push service opens no streams of its own.
                        inboundStreamInitializer: { stream in stream.close() })
                    try channel.pipeline.syncOperations.addHandler(CloseOnError(ending: ending))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .flatMapThrowing { channel in
                let multiplexer = try channel.pipeline.syncOperations.handler(type: NIOHTTP2Handler.self).syncMultiplexer()
                return PushConnection(channel: channel, multiplexer: multiplexer, ending: ending, authority: endpoint.authority)
            }
            .get()
    }

    /// A server may end each stream with a reset once it has answered (nginx does, when it
    /// answers before reading the body). Counted as an attack on a server, that closes the
    /// connection every 200 pushes; the push service is a peer the certificate check vouches for.
    private static let streamConfiguration: NIOHTTP2Handler.StreamConfiguration = {
        var configuration = NIOHTTP2Handler.StreamConfiguration()
        configuration.streamResetFrameRateLimit.maximumCount = 10_000_000
        return configuration
    }()

    /// Sends one request on a new stream and waits for its answer, at most `timeout`.
    func send(path: String, headers extra: [(String, String)], body: ByteBuffer, timeout: TimeAmount) async throws -> Answer {
        var headers = HPACKHeaders()
        headers.reserveCapacity(6 + extra.count)
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":authority", value: authority)
        headers.add(name: ":path", value: path)
        for (name, value) in extra { headers.add(name: name, value: value) }
        headers.add(name: "content-length", value: String(body.readableBytes))
        let answer = channel.eventLoop.makePromise(of: Answer.self)
        let stream = channel.eventLoop.makePromise(of: (any Channel).self)
        multiplexer.createStreamChannel(promise: stream) { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(PushExchange(headers: headers, body: body, answer: answer))
            }
        }
        // No stream (the connection closed first): no answer. An answer completes once; what
        // comes after it (a deadline, a reset) changes nothing.
        stream.futureResult.whenFailure { answer.fail($0) }
        let deadline = channel.eventLoop.scheduleTask(in: timeout) {
            answer.fail(Failure.timedOut)
            stream.futureResult.whenSuccess { $0.close(promise: nil) }
        }
        answer.futureResult.whenComplete { _ in deadline.cancel() }
        do {
            return try await answer.futureResult.get()
        } catch {
            // A push caught by the connection's end reports why it ended, if it ended on an error.
            throw ending.error.withLock { $0 } ?? error
        }
    }

    func close() {
        channel.close(promise: nil)
    }
}

/// A connection-level error (TLS refused, a protocol error) ends the connection: its streams
/// fail, and the next push opens another.
private final class CloseOnError: ChannelInboundHandler {
    typealias InboundIn = Any
    let ending: ConnectionEnding

    init(ending: ConnectionEnding) {
        self.ending = ending
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ending.error.withLock { if $0 == nil { $0 = error } }
        context.close(promise: nil)
    }
}

/// The error a connection ended on, set once by the connection's pipeline.
private final class ConnectionEnding: Sendable {
    let error = Mutex<(any Error)?>(nil)
}
