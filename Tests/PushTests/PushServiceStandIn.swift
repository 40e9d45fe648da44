import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/2 server over TLS in the test process, standing in for Apple's push service: it asks
/// for the push certificate as the client's, records each request, and answers as `behaviour`
/// says for its path.
final class PushServiceStandIn: Sendable {
    enum Behaviour: Sendable {
        case answer(status: Int, reason: String?)
        /// Answers 200 on the request's headers, before its body, then resets the stream: what
        /// nginx does when it answers without reading a body.
        case answerThenReset
        /// Never answers.
        case silence
        /// Closes the whole connection instead of answering.
        case closeConnection
    }

    struct Received: Sendable {
        let path: String
        let headers: [String: String]
        let body: String
    }

    let port: Int
    private let channel: any Channel
    private let state: StandInState

    init(behaviour: @escaping @Sendable (String) -> Behaviour) async throws {
        let pem = Array(try String(contentsOf: Self.certificates.appendingPathComponent("standin.pem"), encoding: .utf8).utf8)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(pem).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: pem, format: .pem)))
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(Self.pushPEM.utf8)))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let state = StandInState()
        self.state = state
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { connection in
                state.connections.withLock { $0 += 1 }
                return connection.eventLoop.makeCompletedFuture {
                    try connection.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    _ = try connection.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .server, connectionConfiguration: Self.connectionConfiguration, streamConfiguration: Self.streamConfiguration) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(StandInStream(state: state, behaviour: behaviour))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        port = channel.localAddress?.port ?? 0
    }

    /// The bodies that arrive after a reset are stream errors for a server, on streams it must
    /// remember having reset; many are this test's point.
    private static let connectionConfiguration: NIOHTTP2Handler.ConnectionConfiguration = {
        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
        configuration.maximumRecentlyResetStreams = 10_000
        return configuration
    }()
    private static let streamConfiguration: NIOHTTP2Handler.StreamConfiguration = {
        var configuration = NIOHTTP2Handler.StreamConfiguration()
        configuration.streamErrorRateLimit.maximumCount = 10_000_000
        return configuration
    }()

    var url: String { "https://127.0.0.1:\(port)" }
    var received: [Received] { state.received.withLock { $0 } }
    var connections: Int { state.connections.withLock { $0 } }

    func stop() async throws {
        try await channel.close()
    }

    static let certificates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Certificates")
    /// The push certificate (and its key) the console would have uploaded.
    static let pushPEM = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../SigningTests/Certificates/MDMPush/push.pem"), encoding: .utf8)) ?? ""
    static let standInPEM = (try? String(contentsOf: certificates.appendingPathComponent("standin.pem"), encoding: .utf8)) ?? ""
}

private final class StandInState: Sendable {
    let received = Mutex<[PushServiceStandIn.Received]>([])
    let connections = Mutex(0)
}

private final class StandInStream: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    let state: StandInState
    let behaviour: @Sendable (String) -> PushServiceStandIn.Behaviour
    var headers: [String: String] = [:]
    var body = ByteBuffer()

    init(state: StandInState, behaviour: @escaping @Sendable (String) -> PushServiceStandIn.Behaviour) {
        self.state = state
        self.behaviour = behaviour
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var ended = false
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            for (name, value, _) in frame.headers { headers[name] = value }
            ended = frame.endStream
            if case .answerThenReset = behaviour(headers[":path"] ?? "") {
                state.received.withLock { $0.append(.init(path: headers[":path"] ?? "", headers: headers, body: "")) }
                answer(context, status: 200, reason: nil)
                context.writeAndFlush(wrapOutboundOut(.rstStream(.noError)), promise: nil)
                return
            }
        case .data(let frame):
            if case .byteBuffer(var bytes) = frame.data { body.writeBuffer(&bytes) }
            ended = frame.endStream
        default:
            break
        }
        guard ended else { return }
        let path = headers[":path"] ?? ""
        state.received.withLock { $0.append(.init(path: path, headers: headers, body: String(buffer: body))) }
        switch behaviour(path) {
        case .answer(let status, let reason):
            answer(context, status: status, reason: reason)
        case .answerThenReset:
            break
        case .silence:
            break
        case .closeConnection:
            context.channel.parent?.close(promise: nil)
        }
    }

    private func answer(_ context: ChannelHandlerContext, status: Int, reason: String?) {
        var headers = HPACKHeaders()
        headers.add(name: ":status", value: String(status))
        guard let reason else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
            return
        }
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        let body = ByteBuffer(string: #"{"reason":"\#(reason)"}"#)
        context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
    }
}
