import Domain
import Foundation
import Hummingbird

/// The document's operations that come from `APIEndpoint`s: read off the route table as the
/// console registered it, their bodies and answers read off their Swift types.
extension OpenAPIDocument {
    /// The whole document: the operations registered from endpoints, over the ones still
    /// described by hand in this folder.
    static func object(describing operations: [DocumentedOperation]) throws -> [String: Any] {
        var whole = document
        let reader = SchemaReader()
        var paths = whole["paths"] as? [String: Any] ?? [:]
        for registered in operations {
            var item = paths[registered.path] as? [String: Any] ?? [:]
            item[registered.method.rawValue.lowercased()] = plain(try operation(registered, reader: reader))
            paths[registered.path] = item
        }
        whole["paths"] = paths
        var components = whole["components"] as? [String: Any] ?? [:]
        var schemas = components["schemas"] as? [String: Any] ?? [:]
        for (name, schema) in reader.components { schemas[name] = plain(schema) }
        components["schemas"] = schemas
        whole["components"] = components
        return whole
    }

    static func operation(_ registered: DocumentedOperation, reader: SchemaReader) throws -> OpenAPI.Operation {
        var responses = errors
        let body = try registered.body(reader)
        if body != nil { responses.merge(bodyErrors) { $1 } }
        let caller = Caller(registered.access)
        responses.merge(caller.errors) { $1 }
        for status in caller.errorsNotAnswered { responses[status] = nil }
        for (status, meaning) in registered.otherAnswers { responses[String(status)] = .error(meaning) }
        responses.merge(try registered.answers(reader)) { $1 }
        let parameters = registered.parameters.flatMap(parameters(named:)) + registered.query
        return OpenAPI.Operation(summary: registered.summary, description: caller.description,
                                 parameters: parameters.isEmpty ? nil : parameters, requestBody: body,
                                 responses: responses, security: caller.security)
    }

    /// What the document says of who calls an operation: a person's API token, or a device's.
    private struct Caller {
        var description: String?
        var security: [[String: [String]]]
        var errors: [String: OpenAPI.Response] = [:]
        var errorsNotAnswered: [String] = []

        init(_ access: Access) {
            switch access {
            case .role(let role):
                description = "Requires the \(role.rawValue) role."
                security = [["bearer": []]]
            case .device:
                description = "Called by a device with its own token."
                security = [["deviceToken": []]]
                errors = ["401": .error("No device token (unauthenticated) or an unknown one (invalid_device_token)")]
                // A device's token reaches every device route: there is no role to lack.
                errorsNotAnswered = ["403"]
            case .anyone:
                security = []
            }
        }
    }
}
