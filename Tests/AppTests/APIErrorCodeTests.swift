@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Every `code` the API answers is an `APIErrorCode`: the document lists them from the enum,
/// what it and the help page say about errors names only those, and answers built by the
/// middleware (not a handler) carry them too.
@Suite struct APIErrorCodeTests {
    static let snakeCase = try! NSRegularExpression(pattern: "\\b[a-z]+(?:_[a-z]+)+\\b")

    static func snakeCaseWords(_ text: String) -> [String] {
        snakeCase.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    static func schemaName(of response: [String: Any]) -> String? {
        let content = response["content"] as? [String: Any]
        let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
        return (schema?["$ref"] as? String)?.components(separatedBy: "/").last
    }

    @Test func codesAreStableSnakeCaseWords() {
        for code in APIErrorCode.allCases {
            #expect(code.rawValue.range(of: "^[a-z]+(_[a-z]+)*$", options: .regularExpression) != nil, "\(code)")
        }
    }

    @Test func theDocumentsErrorSchemaListsEveryCode() async throws {
        let components = try #require((try await TestConsole.openAPIDocument())["components"] as? [String: Any])
        let error = try #require((components["schemas"] as? [String: Any])?["Error"] as? [String: Any])
        let detail = try #require((error["properties"] as? [String: Any])?["error"] as? [String: Any])
        let code = try #require((detail["properties"] as? [String: Any])?["code"] as? [String: Any])
        #expect(code["enum"] as? [String] == APIErrorCode.allCases.map(\.rawValue))
    }

    /// The words the document's error answers and the API help page use for codes are codes
    /// the server can answer: a renamed or misspelt one fails here, not in a client.
    @Test func everyCodeTheDocumentAndTheHelpPageNameIsDeclared() async throws {
        let declared = Set(APIErrorCode.allCases.map(\.rawValue))
        let paths = try #require((try await TestConsole.openAPIDocument())["paths"] as? [String: Any])
        var named: [(String, String)] = []
        for (path, operations) in paths {
            for (method, operation) in try #require(operations as? [String: Any]) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                // Answers in the Error schema; the readiness check's 503 has statuses of its own.
                for (status, response) in responses {
                    guard let response = response as? [String: Any], Self.schemaName(of: response) == "Error" else { continue }
                    let description = response["description"] as? String ?? ""
                    named += Self.snakeCaseWords(description).map { ($0, "\(method) \(path) \(status)") }
                }
            }
        }
        #expect(named.count > 20, "the document names its error codes")
        let help = try String(contentsOf: TestConsole.packageRoot.appendingPathComponent("docs/help/api.md"), encoding: .utf8)
        let quoted = help.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        named += quoted.filter { $0.range(of: "^[a-z]+(_[a-z]+)+$", options: .regularExpression) != nil }.map { ($0, "docs/help/api.md") }
        for (word, place) in named {
            #expect(declared.contains(word), "\(word) in \(place)")
        }
    }

    /// Each kind of import refusal keeps a code of its own, answered with a client-error status.
    @Test func everyImportRefusalHasItsOwnCode() {
        let refusals = ImportProblem.Code.allCases.map { ImportAPIController.refusal(ImportProblem(line: nil, "refused", code: $0)) }
        #expect(Set(refusals.map(\.code)).count == ImportProblem.Code.allCases.count)
        #expect(refusals.allSatisfy { (400..<500).contains($0.status.code) && $0.field == "body" })
        #expect(ImportAPIController.refusal(ImportProblem(line: nil, "big", code: .fileTooLarge)).status == .contentTooLarge)
        #expect(ImportAPIController.refusal(ImportProblem(line: nil, "gone", code: .profileNotFound)).status == .notFound)
        #expect(ImportAPIController.refusal(ImportProblem(line: 3, "odd")).code == .invalidFile)
    }

    @Test func aFrameworkRefusalIsNamedByItsStatus() {
        #expect(APIErrorCode(refusing: .methodNotAllowed) == .methodNotAllowed)
        #expect(APIErrorCode(refusing: .notFound) == .notFound)
        #expect(APIErrorCode(refusing: .unsupportedMediaType) == .unsupportedMediaType)
        #expect(APIErrorCode(refusing: .tooManyRequests) == .requestRefused, "a status no route answers still gets a declared code")
    }

    struct Answer: Equatable {
        let status: HTTPResponse.Status
        let code: APIErrorCode?
        init(_ status: HTTPResponse.Status, _ code: APIErrorCode?) { (self.status, self.code) = (status, code) }
    }

    /// The answer's status and its code, nil when the code is not declared.
    func code(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String?, body: String? = nil) async throws -> Answer {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        let text = try #require((json?["error"] as? [String: Any])?["code"] as? String, "\(method) \(path)")
        return Answer(response.status, APIErrorCode(rawValue: text))
    }

    /// Answers the middleware writes, not a handler: unknown address, wrong method, no or a
    /// wrong token, a body that is no JSON.
    @Test func answersOutsideTheHandlersCarryDeclaredCodes() async throws {
        let console = try await TestConsole.make()
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "script", role: .admin, by: .system).token
        let asked: [(HTTPRequest.Method, String, token: String?, body: String?, Answer)] = [
            (.get, "/api/v1/nothing-here", token, nil, Answer(.notFound, .notFound)),
            (.patch, "/api/v1/profiles/1", token, nil, Answer(.methodNotAllowed, .methodNotAllowed)),
            (.get, "/api/v1/profiles", nil, nil, Answer(.unauthorized, .unauthenticated)),
            (.get, "/api/v1/profiles", "pct_unknown", nil, Answer(.unauthorized, .invalidToken)),
            (.post, "/api/v1/groups", token, "[", Answer(.badRequest, .malformedJSON)),
            (.post, "/api/v1/groups", token, #"{"name": "Lobby", "colour": "red"}"#, Answer(.unprocessableContent, .unknownField)),
        ]
        try await console.test { client in
            for (method, path, token, body, expected) in asked {
                let answer = try await code(client, method, path, token: token, body: body)
                #expect(answer == expected, "\(method) \(path)")
            }
        }
    }

    /// A read Storage stopped because its task was cancelled ends the request as a 503 that says
    /// so and may be retried, not as a 500 "unexpected fault" logged as a failure.
    @Test func aCancelledRequestIsRefusedAsStoppedNotAsAFault() {
        let problem = Problem(CancellationError())
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.code == .requestCancelled)
        #expect(problem.retryAfter == 1)
        #expect(problem.message == "The console stopped this request before it finished. Try again in a moment.")
    }
}
