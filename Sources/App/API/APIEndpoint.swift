import Domain
import HTTPTypes
import Hummingbird

/// One operation of the JSON API, declared once: its method, path, the values its path carries,
/// who may call it, the body it takes and the answer it gives. `SecuredRoutes.handle` (or
/// `DeviceRoutes.handle`) registers the handler from it — reading `Body` and the path's
/// `Values` before the handler runs and turning the `Answer` the handler must return into the
/// response — and records it in the route table, from which the API document is built. So the
/// document and the handler read the same types: they cannot disagree.
///
/// An operation whose path carries no values is an `APIEndpoint<Body, Answer>`; one that does
/// names them first: `Endpoint<RecordID<DeviceGroupRecord>, NoBody, NoContent>` for
/// `DELETE /api/v1/groups/{id}`.
struct Endpoint<Values: PathValues, Body: EndpointBody, Answer: EndpointAnswer>: Sendable, Addressed {
    let method: HTTPRequest.Method
    let template: PathTemplate<Values>
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
        template = PathTemplate(path)
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
        let pathParameters = zip(template.names, Values.pathSchemas).map { name, schema in
            OpenAPI.Parameter(name: name, location: .path, required: true, schema: schema)
        }
        return DocumentedOperation(method: method, path: pattern, summary: summary, access: access, pathParameters: pathParameters,
                            parameters: parameters, query: query,
                            success: success, otherAnswers: otherAnswers,
                            body: { try Body.documentedBody($0) },
                            answers: { [success] reader in try Answer.documentedAnswers(success: success, reader: reader) })
    }
}

extension Endpoint {
    /// Reads the body, then the path's values, runs the handler and makes its response: the
    /// order every kind of caller's routes follow.
    func respond<Context>(to request: Request, parameters: Parameters, context: Context,
                          with handler: (Values, Body, Request, Context) async throws -> Reply<Answer>) async throws -> Response {
        let body = try await Body.read(from: request)
        let reply = try await handler(try values(in: parameters), body, request, context)
        return try reply.answer.response(status: success, headers: reply.headers)
    }
}

/// An operation whose path carries no values.
typealias APIEndpoint<Body: EndpointBody, Answer: EndpointAnswer> = Endpoint<NoValues, Body, Answer>

/// What the API document says of one operation, kept in the route table as it is registered.
struct DocumentedOperation: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let summary: String
    let access: Access
    /// The path's values, named by the path and typed by the declaration.
    let pathParameters: [OpenAPI.Parameter]
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
    /// then its path's values read (400), the role checked, and the handler's answer encoded
    /// with any headers it adds.
    func handle<Values, Body, Answer>(_ endpoint: Endpoint<Values, Body, Answer>,
                                      _ handler: @escaping @Sendable (Values, Body, Request, SignedInContext) async throws -> Reply<Answer>) {
        guard case .role(let role) = endpoint.access else {
            // A declaration error every test meets as the console is built, never a request's.
            preconditionFailure("\(endpoint.method) \(endpoint.pattern) is not for a role: register it where its callers are (DeviceRoutes)")
        }
        table.document(endpoint.operation)
        add(endpoint.method, endpoint.pattern, role) { request, context in
            try await endpoint.respond(to: request, parameters: context.parameters, context: context, with: handler)
        }
    }

    // The shapes a handler takes: without path values, without a body, with one value or two.

    func handle<Body, Answer>(_ endpoint: APIEndpoint<Body, Answer>,
                              _ handler: @escaping @Sendable (Body, Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (_: NoValues, body, request, context) in try await handler(body, request, context) }
    }

    func handle<Answer>(_ endpoint: APIEndpoint<NoBody, Answer>,
                        _ handler: @escaping @Sendable (Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (_: NoValues, _: NoBody, request, context) in try await handler(request, context) }
    }

    func handle<Value: PathValue, Answer>(_ endpoint: Endpoint<Value, NoBody, Answer>,
                                          _ handler: @escaping @Sendable (Value, Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (value: Value, _: NoBody, request, context) in try await handler(value, request, context) }
    }

    func handle<First, Second, Body, Answer>(_ endpoint: Endpoint<PathPair<First, Second>, Body, Answer>,
                                             _ handler: @escaping @Sendable (First, Second, Body, Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (values: PathPair<First, Second>, body, request, context) in
            try await handler(values.first, values.second, body, request, context)
        }
    }

    func handle<First, Second, Answer>(_ endpoint: Endpoint<PathPair<First, Second>, NoBody, Answer>,
                                       _ handler: @escaping @Sendable (First, Second, Request, SignedInContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (values: PathPair<First, Second>, _: NoBody, request, context) in
            try await handler(values.first, values.second, request, context)
        }
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
