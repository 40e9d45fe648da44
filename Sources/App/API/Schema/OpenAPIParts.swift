import Domain

/// The parts of an OpenAPI 3.1 document the console's uses, as values.
enum OpenAPI {
    struct Operation: Encodable, Sendable {
        var summary: String
        var description: String?
        var parameters: [Parameter]?
        var requestBody: RequestBody?
        var responses: [String: Response]
        var security: [[String: [String]]]
    }

    struct Parameter: Encodable, Sendable {
        enum Location: String, Encodable, Sendable { case path, query, header }

        let name: String
        let location: Location
        let required: Bool
        let schema: JSONSchema
        var description: String?

        private enum CodingKeys: String, CodingKey {
            case name, location = "in", required, schema, description
        }

        static func query(_ name: String, _ schema: JSONSchema, _ description: String) -> Parameter {
            Parameter(name: name, location: .query, required: false, schema: schema, description: description)
        }
    }

    struct RequestBody: Encodable, Sendable {
        let required = true
        let content: [String: MediaType]

        init(json schema: JSONSchema) {
            content = ["application/json": MediaType(schema: schema)]
        }
    }

    struct MediaType: Encodable, Sendable {
        let schema: JSONSchema
        var example: JSONValue?
    }

    struct Header: Encodable, Sendable {
        let description: String
        let schema: JSONSchema
    }

    struct Response: Encodable, Sendable {
        let description: String
        var headers: [String: Header]?
        var content: [String: MediaType]?

        /// A response with a JSON body of `schema`.
        static func json(_ description: String, _ schema: JSONSchema, headers: [String: Header]? = nil) -> Response {
            Response(description: description, headers: headers, content: ["application/json": MediaType(schema: schema)])
        }

        /// The API's error body, `{"error": {"code", "message", "field"}}`.
        static func error(_ description: String, headers: [String: Header]? = nil) -> Response {
            json(description, .reference(to: "Error"), headers: headers)
        }
    }
}
