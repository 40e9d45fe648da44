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
        /// A query parameter sent once per value (`line=1&line=2`): form, exploded.
        var repeated = false

        private enum CodingKeys: String, CodingKey {
            case name, location = "in", required, schema, description, style, explode
        }

        static func query(_ name: String, _ schema: JSONSchema, _ description: String) -> Parameter {
            Parameter(name: name, location: .query, required: false, schema: schema, description: description)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(location, forKey: .location)
            try container.encode(required, forKey: .required)
            try container.encode(schema, forKey: .schema)
            try container.encodeIfPresent(description, forKey: .description)
            if repeated {
                try container.encode("form", forKey: .style)
                try container.encode(true, forKey: .explode)
            }
        }
    }

    struct RequestBody: Encodable, Sendable {
        let required = true
        var description: String?
        let content: [String: MediaType]

        init(json schema: JSONSchema) {
            content = ["application/json": MediaType(schema: schema)]
        }

        /// A body of other media types: a file's bytes, NDJSON lines.
        init(_ description: String, content: [String: MediaType]) {
            self.description = description
            self.content = content
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

extension OpenAPI {
    /// The whole document, as `GET /api/openapi.json` serves it.
    struct Document: Encodable, Sendable {
        let openapi = "3.1.0"
        let info: Info
        let components: Components
        /// Operations by path, then by lowercased method.
        let paths: [String: [String: Operation]]
    }

    struct Info: Encodable, Sendable {
        let title: String
        let version: String
        let description: String
    }

    struct Components: Encodable, Sendable {
        let securitySchemes: [String: SecurityScheme]
        let schemas: [String: JSONSchema]
    }

    /// A bearer token scheme: the console's API tokens and the devices' check-in tokens.
    struct SecurityScheme: Encodable, Sendable {
        let type = "http"
        let scheme = "bearer"
        let description: String
    }
}
