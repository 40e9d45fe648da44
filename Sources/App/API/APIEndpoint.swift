import Domain
import HTTPTypes
import Hummingbird

/// One operation of the JSON API, declared once: its method, path, who may call it, the body
/// it takes and the answer it gives. `SecuredRoutes.handle` (or `DeviceRoutes.handle`)
/// registers the handler from it — reading `Body` before the handler runs and turning the
/// `Answer` the handler must return into the response — and records it in the route table,
/// from which the API document is built. So the document and the handler read the same
/// types: they cannot disagree.
struct APIEndpoint<Body: EndpointBody, Answer: EndpointAnswer>: Sendable {
    let method: HTTPRequest.Method
    let path: String
    /// A role (`SecuredRoutes`), or `.device` for the device API (`DeviceRoutes`).
    let access: Access
    let summary: String
    /// Parameters by name, as `OpenAPIDocument.parameter(named:)` describes them.
    var parameters: [String] = []
    /// Query parameters only this operation reads, described where it is declared.
    var query: [OpenAPI.Parameter] = []
    /// The status of a successful answer.
    var success: HTTPResponse.Status = .ok
    /// Answers beside the ones every operation may give, by status: what they mean.
    var otherAnswers: [Int: String] = [:]

    init(_ method: HTTPRequest.Method, _ path: String, access: Access, _ summary: String, parameters: [String] = [],
         query: [OpenAPI.Parameter] = [], success: HTTPResponse.Status = .ok, otherAnswers: [Int: String] = [:]) {
        self.method = method
        self.path = path
        self.access = access
        self.summary = summary
        self.parameters = parameters
        self.query = query
        self.success = success
        self.otherAnswers = otherAnswers
    }

    init(_ method: HTTPRequest.Method, _ path: String, role: Role, _ summary: String, parameters: [String] = [],
         query: [OpenAPI.Parameter] = [], success: HTTPResponse.Status = .ok, otherAnswers: [Int: String] = [:]) {
        self.init(method, path, access: .role(role), summary, parameters: parameters, query: query, success: success, otherAnswers: otherAnswers)
    }

    var operation: DocumentedOperation {
        DocumentedOperation(method: method, path: path, summary: summary, access: access, parameters: parameters, query: query,
                            success: success, otherAnswers: otherAnswers,
                            body: { try Body.documentedBody($0) },
                            answers: { [success] reader in try Answer.documentedAnswers(success: success, reader: reader) })
    }
}

/// What the API document says of one operation, kept in the route table as it is registered.
struct DocumentedOperation: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let summary: String
    let access: Access
    let parameters: [String]
    let query: [OpenAPI.Parameter]
    let success: HTTPResponse.Status
    let otherAnswers: [Int: String]
    /// The body, nil where there is none; the successful answers by status.
    let body: @Sendable (SchemaReader) throws -> OpenAPI.RequestBody?
    let answers: @Sendable (SchemaReader) throws -> [String: OpenAPI.Response]
}

/// The body of an operation that takes none: nothing is read.
struct NoBody: APIRequestBody {
    enum CodingKeys: CodingKey, CaseIterable {}

    static func read(from request: Request) async throws -> NoBody { NoBody() }
    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema? { nil }
    static func documentedBody(_ reader: SchemaReader) throws -> OpenAPI.RequestBody? { nil }
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
        guard case .role(let role) = endpoint.access else {
            // A declaration error every test meets as the console is built, never a request's.
            preconditionFailure("\(endpoint.method) \(endpoint.path) is not for a role: register it where its callers are (DeviceRoutes)")
        }
        table.document(endpoint.operation)
        add(endpoint.method, endpoint.path, role) { request, context in
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
