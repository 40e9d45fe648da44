import Domain
import Foundation
import Hummingbird

/// The document's operations that come from `APIEndpoint`s: read off the route table as the
/// console registered it, their bodies and answers read off their Swift types.
extension OpenAPIDocument {
    /// The whole document: every operation registered from an endpoint, the load balancer's
    /// checks and this document's own entry, with the schemas their types name.
    static func document(describing operations: [DocumentedOperation]) throws -> OpenAPI.Document {
        let reader = SchemaReader()
        var paths = checkPaths.merging(documentPath) { $1 }
        for registered in operations {
            paths[registered.path, default: [:]][registered.method.rawValue.lowercased()] = try operation(registered, reader: reader)
        }
        _ = try reader.schema(of: APIErrorBody.self)
        var schemas = reader.components
        schemas[PayloadDocument.componentName] = PayloadDocument.component
        return OpenAPI.Document(info: info, components: OpenAPI.Components(securitySchemes: securitySchemes, schemas: schemas), paths: paths)
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
        let parameters = registered.pathParameters + registered.parameters.flatMap(parameters(named:)) + registered.query
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
            case .mdmDevice:
                // Not in the JSON API: MDM's endpoints speak Apple's protocol, not this document's.
                description = "Called by a device over Apple's MDM protocol, identified by Mdm-Signature."
                security = []
            }
        }
    }
}
