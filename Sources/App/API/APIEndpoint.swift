import Domain
import HTTPTypes
import Hummingbird

/// One operation of the JSON API, declared once: its method, path, role, the body it takes and
/// the answer it gives. `SecuredRoutes.handle` registers the handler from it — decoding
/// `Body` before the handler runs and encoding the `Answer` the handler must return — and
/// records it in the route table, from which the API document is built. So the document
/// and the handler read the same types: they cannot disagree.
struct APIEndpoint<Body: APIRequestBody, Answer: EndpointAnswer>: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let role: Role
    let summary: String
    /// Parameters by name, as `OpenAPIDocument.parameter(named:)` describes them.
    var parameters: [String] = []
    /// The status of a successful answer.
    var success: HTTPResponse.Status = .ok
    /// Answers beside the ones every operation may give, by status: what they mean.
    var otherAnswers: [Int: String] = [:]

    init(_ method: HTTPRequest.Method, _ path: String, role: Role, _ summary: String, parameters: [String] = [],
         success: HTTPResponse.Status = .ok, otherAnswers: [Int: String] = [:]) {
        self.method = method
        self.path = path
        self.role = role
        self.summary = summary
        self.parameters = parameters
        self.success = success
        self.otherAnswers = otherAnswers
    }

    var operation: DocumentedOperation {
        DocumentedOperation(method: method, path: path, summary: summary, role: role, parameters: parameters,
                            success: success, otherAnswers: otherAnswers,
                            body: { try Body.documentedSchema($0) }, answer: { [success] in try Answer.documentedResponse(success, $0) })
    }
}

/// What the API document says of one operation, kept in the route table as it is registered.
struct DocumentedOperation: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let summary: String
    let role: Role
    let parameters: [String]
    let success: HTTPResponse.Status
    let otherAnswers: [Int: String]
    /// The body's schema, nil where there is none.
    let body: @Sendable (SchemaReader) throws -> JSONSchema?
    /// The successful response: its description, and its content when it has some.
    let answer: @Sendable (SchemaReader) throws -> OpenAPI.Response
}

/// The body of an operation that takes none: nothing is read.
struct NoBody: APIRequestBody {
    enum CodingKeys: CodingKey, CaseIterable {}

    static func read(from request: Request) async throws -> NoBody { NoBody() }
    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema? { nil }
}

/// The answer of an operation that answers with its status alone (204).
struct NoContent: APIAnswer {
    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response {
        Response(status: status, headers: headers)
    }

    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema? { nil }
}

extension SecuredRoutes {
    /// Registers `endpoint`: its body decoded (413, 400 or 422 as `APIRequest` words them),
    /// the role checked, and the handler's answer encoded with any headers it adds.
    func handle<Body, Answer>(_ endpoint: APIEndpoint<Body, Answer>,
                              _ handler: @escaping @Sendable (Body, Request, SignedInContext) async throws -> Reply<Answer>) {
        table.document(endpoint.operation)
        add(endpoint.method, endpoint.path, endpoint.role) { request, context in
            let reply = try await handler(try await Body.read(from: request), request, context)
            return try reply.answer.response(status: endpoint.success, headers: reply.headers)
        }
    }

    /// An endpoint without a body: the handler gets the request and its context.
    func handle<Answer>(_ endpoint: APIEndpoint<NoBody, Answer>,
                        _ handler: @escaping @Sendable (Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { _, request, context in try await handler(request, context) }
    }
}

/// A handler's answer, with any headers beside it (ETag, Location).
struct Reply<Answer: EndpointAnswer>: Sendable {
    let answer: Answer
    var headers: HTTPFields = [:]

    init(_ answer: Answer, headers: HTTPFields = [:]) {
        self.answer = answer
        self.headers = headers
    }
}

extension Reply where Answer == NoContent {
    static var done: Reply { Reply(NoContent()) }
}
