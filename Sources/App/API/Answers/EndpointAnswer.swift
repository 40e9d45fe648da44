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

/// A JSON answer with a typical value to show in the document: an example that cannot go
/// stale, since it is encoded from the answer's own type.
protocol ExampleAnswer: APIAnswer {
    static var example: Self { get }
}

extension APIAnswer {
    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        guard let schema = try documentedSchema(reader) else { return [String(success.code): OpenAPI.Response(description: success.reasonPhrase)] }
        var response = OpenAPI.Response.json(success.reasonPhrase, schema)
        if let example = try (Self.self as? any ExampleAnswer.Type)?.encodedExample() {
            response.content?["application/json"]?.example = example
        }
        return [String(success.code): response]
    }
}

extension ExampleAnswer {
    static func encodedExample() throws -> JSONValue {
        try APIAnswerCoding.decoder.decode(JSONValue.self, from: example.encodedJSON())
    }
}
