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
        for (status, meaning) in registered.otherAnswers { responses[String(status)] = .error(meaning) }
        responses[String(registered.success.code)] = try registered.answer(reader)
        let parameters = registered.parameters.flatMap(parameters(named:))
        return OpenAPI.Operation(summary: registered.summary, description: "Requires the \(registered.role.rawValue) role.",
                                 parameters: parameters.isEmpty ? nil : parameters, requestBody: body.map(OpenAPI.RequestBody.init(json:)),
                                 responses: responses, security: [["bearer": []]])
    }
}
