@testable import App
import Testing

/// The OpenAPI document describes exactly what the server does (schemathesis checks the
/// answers against it in `make test`; these pin the points it cannot see).
@Suite struct OpenAPIAccuracyTests {
    func parameters(_ path: String, _ method: String) throws -> [[String: Any]] {
        let paths = try #require(OpenAPIDocument.document["paths"] as? [String: Any])
        let operation = try #require((paths[path] as? [String: Any])?[method] as? [String: Any])
        return operation["parameters"] as? [[String: Any]] ?? []
    }

    @Test func everyPathParameterIsInThePathAndEveryIdIsPositive() throws {
        let paths = try #require(OpenAPIDocument.document["paths"] as? [String: Any])
        for (path, operations) in paths {
            for (method, operation) in try #require(operations as? [String: Any]) {
                let parameters = (operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
                for parameter in parameters where path.contains("{\(parameter["name"] as? String ?? "")}") {
                    #expect(parameter["in"] as? String == "path", "\(method) \(path) \(parameter)")
                    if (parameter["schema"] as? [String: Any])?["type"] as? String == "integer" {
                        #expect((parameter["schema"] as? [String: Any])?["minimum"] as? Int == 1, "\(method) \(path)")
                    }
                }
            }
        }
        let unassign = try parameters("/api/v1/profiles/{id}/assignments/{group}", "delete")
        #expect(unassign.contains { $0["name"] as? String == "group" && $0["in"] as? String == "path" })
    }

    @Test func consoleBodiesAllowNoOtherFields() throws {
        let components = try #require(OpenAPIDocument.document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        for name in ["ProfileInput", "AppInput", "GroupInput", "DeviceInput", "SimulatorAction"] {
            #expect((schemas[name] as? [String: Any])?["additionalProperties"] as? Bool == false, "\(name)")
        }
    }
}
