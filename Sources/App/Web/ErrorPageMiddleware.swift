import Foundation
import Hummingbird
import Logging
import NIOCore
import Storage

/// Turns every error into an answer a person or a script can use: a friendly HTML page for
/// browsers, a JSON error with a stable code under `/api/`. Unexpected faults are logged with
/// the request id, which the 500 page shows so support can find the log line.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let carried = error as? ErrorWithHeaders
            let error = carried?.error ?? error
            var response = answer(for: error, request: request, context: context)
            // Headers the error carries (Allow on a 405, Retry-After) belong on the answer too.
            if let error = error as? HTTPError { response.headers.append(contentsOf: error.headers) }
            if let carried { response.headers.append(contentsOf: carried.headers) }
            return response
        }
    }

    private func answer(for error: any Error, request: Request, context: Context) -> Response {
        let api = request.uri.path.hasPrefix("/api/")
        let problem = Problem(error)
        if problem.status == .internalServerError {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
        } else if case StorageError.unavailable(let message, _) = error {
            // Says which server (never its password); the person sees only that it is away.
            context.logger.warning("Request refused: the database is unreachable", metadata: ["error": "\(message)", "path": "\(request.uri.path)"])
        }
        var response = answer(for: problem, error: error, api: api, request: request, context: context)
        if let seconds = problem.retryAfter { response.headers[.retryAfter] = "\(seconds)" }
        return response
    }

    private func answer(for problem: Problem, error: any Error, api: Bool, request: Request, context: Context) -> Response {
        if api {
            let requestID = problem.status == .internalServerError ? context.id : nil
            return (try? Response.json(APIErrorBody(problem, requestID: requestID), status: problem.status))
                ?? Response(status: problem.status)
        }
        switch error {
        case AccessDenied.signInRequired:
            return .seeOther(Site.Accounts.signInForm(next: request.method == .get ? request.uri.description : Site.dashboard.link()))
        case AccessDenied.passwordChangeRequired:
            return .seeOther(Site.Accounts.passwordForm.link())
        default:
            return renderer.errorPage(
                status: problem.status, heading: problem.heading, message: problem.message,
                requestID: problem.status == .internalServerError ? context.id : nil)
        }
    }
}

/// An error on its way to `ErrorPageMiddleware` with headers its answer must carry, whatever
/// page or JSON the error becomes (clearing a stale session cookie).
struct ErrorWithHeaders: Error {
    let error: any Error
    let headers: HTTPFields

    init(_ error: any Error, _ headers: HTTPFields) {
        self.error = error
        self.headers = headers
    }
}

/// What went wrong, phrased once for both the HTML page and the JSON body.
struct Problem {
    let status: HTTPResponse.Status
    let code: APIErrorCode
    let heading: String
    let message: String
    var field: String?
    /// Seconds after which trying again may succeed (`Retry-After`), for a passing outage.
    var retryAfter: Int?

    init(status: HTTPResponse.Status, code: APIErrorCode, heading: String, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.heading = heading
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self.init(status: error.status, code: error.code, heading: "Request refused", message: error.message, field: error.field)
        case let refusal as CatalogRefusal:
            let (field, message) = refusal.firstField
            self.init(status: refusal.reason == .conflict ? .conflict : .unprocessableContent, code: refusal.code,
                      heading: "Not saved", message: message, field: field)
        case AccessDenied.signInRequired:
            self.init(status: .unauthorized, code: .unauthenticated, heading: "Sign in required",
                      message: "Sign in, or send a valid API token.")
        case AccessDenied.passwordChangeRequired:
            self.init(status: .forbidden, code: .passwordChangeRequired, heading: "Choose a new password",
                      message: "This account still has a one-time password. Choose a new one first.")
        case AccessDenied.insufficientRole:
            self.init(status: .forbidden, code: .forbidden, heading: "You don’t have access to this page",
                      message: "Your role does not include this action. Ask an admin if you need it.")
        case AccessDenied.formExpired:
            self.init(status: .forbidden, code: .csrfTokenInvalid, heading: "This form has expired",
                      message: "For your security the form could not be accepted. Go back, reload the page and try again.")
        case StorageError.full:
            self.init(status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: .storageFull, heading: "The console's disk is full",
                      message: "Nothing new can be saved until there is room: reading, searching and downloading still work. An admin can free space by deleting old logs, or give the console more disk.")
        case StorageError.unavailable:
            // The server is down, restarting or starting up; the next statement connects again,
            // so this passes by itself.
            self.init(status: .serviceUnavailable, code: .databaseUnavailable, heading: "The database is unreachable",
                      message: "The database is unreachable; try again in a moment.", retryAfter: 5)
        case is CancellationError:
            // A read stopped part-way (Storage interrupts SQLite for a cancelled task): not a
            // fault, and a caller still there may simply ask again.
            self.init(status: .serviceUnavailable, code: .requestCancelled, heading: "The request was stopped",
                      message: "The console stopped this request before it finished. Try again in a moment.", retryAfter: 1)
        case StorageError.textWithNUL:
            self.init(status: .badRequest, code: .badRequest, heading: "Text the console cannot keep",
                      message: "Part of this request holds the NUL character (U+0000), which no field accepts; nothing was changed.")
        case StorageError.notFound:
            self.init(status: .notFound, code: .notFound, heading: "Not found",
                      message: "That item does not exist, or it was removed.")
        case let error as HTTPError where error.status == .notFound:
            self.init(status: .notFound, code: .notFound, heading: "Page not found",
                      message: "There is nothing at this address. Check the link, or start again from the dashboard.")
        case _ where Self.isTooLarge(error):
            self.init(status: .contentTooLarge, code: .payloadTooLarge, heading: "Too large to accept",
                      message: RequestLimits.description)
        case let error as HTTPError where error.status == .badRequest:
            // The framework's own 400s (an id that is not a number) name internal types; say it plainly.
            self.init(status: .badRequest, code: .badRequest, heading: "That address is not valid",
                      message: "Part of this address or request is not valid. Check the link, or start again from the dashboard.")
        case let error as HTTPError where error.status.code < 500:
            self.init(status: error.status, code: APIErrorCode(refusing: error.status), heading: error.status.reasonPhrase,
                      message: error.body ?? "The request could not be handled.")
        default:
            self.init(status: .internalServerError, code: .internalError, heading: "Something went wrong",
                      message: "The console hit an unexpected fault. It has been logged; quote the request id below when you report it.")
        }
    }

    /// Hummingbird's `collectBody(upTo:)` throws NIO's own error for a body over the limit.
    private static func isTooLarge(_ error: any Error) -> Bool {
        error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge
    }
}

/// An error an API handler throws on purpose, with its stable code.
struct APIError: Error {
    let status: HTTPResponse.Status
    let code: APIErrorCode
    let message: String
    var field: String?
}

/// `{"error": {"code": "…", "message": "…", "field": "…"}}`: the `Error` schema of the API
/// document is read off this type, so every error answers what the document says.
struct APIErrorBody: Codable, NamedSchema {
    static let schemaName = "Error"

    struct Detail: Codable {
        let code: APIErrorCode
        let message: String
        let field: String?
        let requestID: String?

        enum CodingKeys: String, CodingKey { case code, message, field, requestID }

        /// `field` is always there, null when the error is about no one field, so a client
        /// reads the same shape from every error; the request id only on a 500.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encode(field, forKey: .field)
            try container.encodeIfPresent(requestID, forKey: .requestID)
        }
    }

    let error: Detail

    init(_ problem: Problem, requestID: String? = nil) {
        error = Detail(code: problem.code, message: problem.message, field: problem.field, requestID: requestID)
    }
}
