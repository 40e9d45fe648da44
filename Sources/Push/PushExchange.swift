import NIOCore
import NIOHPACK
import NIOHTTP2

/// One push on its own stream: writes the request once the stream is open, collects the
/// answer (its body bounded), and completes `answer` — with the answer, or with why there is
/// none (reset, closed).
final class PushExchange: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload
    /// Apple's answers are a status and a short JSON reason.
    static let largestBody = 16 << 10

    private let headers: HPACKHeaders
    private let body: ByteBuffer
    private let answer: EventLoopPromise<PushConnection.Answer>
    private var sent = false
    private var finished = false
    private var status: Int?
    private var received = ByteBuffer()

    init(headers: HPACKHeaders, body: ByteBuffer, answer: EventLoopPromise<PushConnection.Answer>) {
        self.headers = headers
        self.body = body
        self.answer = answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { send(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context)
        context.fireChannelActive()
    }

    private func send(_ context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var endStream = false
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            // An interim 1xx answer is followed by the real one.
            if let text = frame.headers.first(name: ":status"), let code = Int(text), code >= 200 { status = code }
            endStream = frame.endStream
        case .data(let frame):
            if case .byteBuffer(var bytes) = frame.data, received.readableBytes < Self.largestBody {
                received.writeBuffer(&bytes)
            }
            endStream = frame.endStream
        case .rstStream(let code):
            finish(.failure(PushConnection.Failure.streamReset(code)))
        default:
            break
        }
        if endStream {
            if let status {
                finish(.success(.init(status: status, body: received)))
            } else {
                finish(.failure(PushConnection.Failure.noStatus))
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(PushConnection.Failure.closedBeforeAnswer))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    private func finish(_ result: Result<PushConnection.Answer, any Error>) {
        guard !finished else { return }
        finished = true
        answer.completeWith(result)
    }
}
