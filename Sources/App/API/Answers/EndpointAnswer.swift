import Domain
import Foundation
import Hummingbird

/// Anything an `APIEndpoint` answers: JSON (`APIAnswer`), its status alone (`NoContent`), or
/// bytes as they are (`FileAnswer`, `ConditionalAnswer`). Each says both how it becomes a
/// response and how the document describes it, so the two come from the same type.
protocol EndpointAnswer: Sendable {
    /// The answer as a response, with the handler's extra headers (ETag, Location).
    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response
    /// The document's successful answers, by status code: `success`, and any other the type
    /// itself gives (`ConditionalAnswer`'s 304).
    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response]
}

extension APIAnswer {
    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        // An example, if the type shows one (`DocumentedExample`), is on its schema.
        guard let schema = try documentedSchema(reader) else { return [String(success.code): OpenAPI.Response(description: success.reasonPhrase)] }
        return [String(success.code): OpenAPI.Response.json(success.reasonPhrase, schema)]
    }
}
