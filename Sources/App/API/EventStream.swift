import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One event a stream sends: its name (the `event:` line), its data (one `data:` line) and,
/// when a client can resume after it, its id. A stream's events are one enum, so the names it
/// sends are declared once.
protocol StreamedEvent: Sendable {
    /// What the stream sends, event by event, for the API document.
    static var streamDescription: String { get }
    var name: String { get }
    var id: String? { get }
    /// The data, on one line: SSE data ends at a line break.
    func data() throws -> String
}

extension StreamedEvent {
    /// `answer` as one line of the API's JSON (its encoder escapes line breaks inside strings).
    static func line(_ answer: some Encodable) throws -> String {
        String(decoding: try APIAnswerCoding.encoder.encode(answer), as: UTF8.self)
    }
}

/// An answer that is a stream of server-sent events (`text/event-stream`): the handler checks
/// its request and returns one; `produce` then writes the events until it returns. The stream
/// starts by telling the client to reconnect after a second, as browsers then do by themselves.
struct EventStream<Event: StreamedEvent>: EndpointAnswer {
    static var reconnectMilliseconds: Int { 1000 }

    let produce: @Sendable (inout EventStreamWriter<Event>) async throws -> Void

    init(_ produce: @escaping @Sendable (inout EventStreamWriter<Event>) async throws -> Void) {
        self.produce = produce
    }

    func response(status: HTTPResponse.Status, headers extra: HTTPFields) throws -> Response {
        var headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        let produce = produce
        return Response(status: status, headers: headers, body: ResponseBody { body in
            var events = EventStreamWriter<Event>(body: body)
            try await events.write("retry: \(Self.reconnectMilliseconds)\n\n")
            try await produce(&events)
            try await events.body.finish(nil)
        })
    }

    /// OpenAPI 3.1 describes a stream by one event's fields, `data` being the JSON text the
    /// description says; clients (and schemathesis) check each event against it.
    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        var event = JSONSchema.of(.object, description: "One server-sent event; data is JSON text")
        event.properties = ["event": .string, "data": .string, "id": .string, "retry": .integer]
        return [String(success.code): OpenAPI.Response(description: "text/event-stream. " + Event.streamDescription,
                                                       content: ["text/event-stream": OpenAPI.MediaType(schema: event)])]
    }
}

/// Writes a stream's events in SSE framing; awaiting each write gives back-pressure.
struct EventStreamWriter<Event: StreamedEvent> {
    fileprivate var body: any ResponseBodyWriter

    /// `id:` (when the event has one), `event:` and `data:` lines, then the blank line that ends it.
    mutating func send(_ event: Event) async throws {
        let id = event.id.map { "id: \($0)\n" } ?? ""
        try await write("\(id)event: \(event.name)\ndata: \(try event.data())\n\n")
    }

    /// A comment: clients ignore it, and proxies see the stream is still alive.
    mutating func comment(_ text: String) async throws {
        try await write(": \(text)\n\n")
    }

    fileprivate mutating func write(_ text: String) async throws {
        try await body.write(ByteBuffer(string: text))
    }
}
