import Foundation
import Hummingbird
import NIOCore

/// What an endpoint's handler answers with: how it becomes the response, and how the API
/// document describes that response. Most are JSON (`APIAnswer`); a stream of server-sent
/// events is an `EventStream`.
protocol EndpointAnswer: Sendable {
    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response
    /// The successful response as the document describes it.
    static func documentedResponse(_ status: HTTPResponse.Status, _ reader: SchemaReader) throws -> OpenAPI.Response
}

/// A JSON answer of the API: a `Codable` type, so the handler that builds it and the document
/// that describes it (`SchemaReader`) read the same fields. Decodable too, so tests and
/// scripts in Swift read answers with the same type.
protocol APIAnswer: EndpointAnswer, Codable {
    /// The answer as a response: JSON, unless the status says it all (`NoContent`).
    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response
    /// The answer's schema in the API document; nil when there is no body.
    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema?
}

extension APIAnswer {
    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response {
        try .json(self, status: status, headers: headers)
    }

    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema? {
        try reader.schema(of: Self.self)
    }

    static func documentedResponse(_ status: HTTPResponse.Status, _ reader: SchemaReader) throws -> OpenAPI.Response {
        try documentedSchema(reader).map { .json(status.reasonPhrase, $0) } ?? OpenAPI.Response(description: status.reasonPhrase)
    }

    /// The answer as JSON: keys sorted, times in ISO 8601 (as `DisplayTime.iso` writes them).
    func encodedJSON() throws -> Data {
        try APIAnswerCoding.encoder.encode(self)
    }
}

enum APIAnswerCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(DisplayTime.iso(date))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

extension Response {
    /// `answer` as the API's JSON.
    static func json(_ answer: some APIAnswer, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try answer.encodedJSON())))
    }
}
