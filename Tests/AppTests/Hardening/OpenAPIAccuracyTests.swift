@testable import App
import Domain
import Foundation
import HummingbirdTesting
import Testing

/// The OpenAPI document describes exactly what the server does (schemathesis checks the
/// answers against it in `make test`; these pin the points it cannot see).
@Suite struct OpenAPIAccuracyTests {
    func parameters(_ path: String, _ method: String) async throws -> [[String: Any]] {
        let paths = try #require((try await TestConsole.openAPIDocument())["paths"] as? [String: Any])
        let operation = try #require((paths[path] as? [String: Any])?[method] as? [String: Any])
        return operation["parameters"] as? [[String: Any]] ?? []
    }

    @Test func everyPathParameterIsInThePathAndEveryIdIsPositive() async throws {
        let paths = try #require((try await TestConsole.openAPIDocument())["paths"] as? [String: Any])
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
        let unassign = try await parameters("/api/v1/profiles/{id}/assignments/{group}", "delete")
        #expect(unassign.contains { $0["name"] as? String == "group" && $0["in"] as? String == "path" })
    }

    @Test func consoleBodiesAllowNoOtherFields() async throws {
        let components = try #require((try await TestConsole.openAPIDocument())["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        for name in ["ProfileInput", "AppInput", "GroupInput", "DeviceInput", "SimulatorAction"] {
            #expect((schemas[name] as? [String: Any])?["additionalProperties"] as? Bool == false, "\(name)")
        }
    }

    func fieldSchema(_ schema: String, _ field: String) async throws -> [String: Any] {
        let components = try #require((try await TestConsole.openAPIDocument())["components"] as? [String: Any])
        let object = try #require((components["schemas"] as? [String: Any])?[schema] as? [String: Any])
        return try #require((object["properties"] as? [String: Any])?[field] as? [String: Any], "\(schema).\(field)")
    }

    /// Whether `text` fits the field's pattern and length as a client's JSON Schema validator
    /// would judge it (ICU's regular expressions read these patterns as ECMA-262 does).
    func documentAccepts(_ schema: [String: Any], _ text: String) throws -> Bool {
        if let maxLength = schema["maxLength"] as? Int, text.unicodeScalars.count > maxLength { return false }
        guard let pattern = schema["pattern"] as? String else { return true }
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The patterns are checked against the domain rules on the strings that sit on each rule's
    /// edges: trimming, length, control characters, letters that only look like ASCII.
    @Test func theDocumentsTextRulesAgreeWithTheDomainRules() async throws {
        let names = ["Lobby", " Lobby kiosk\t", "\u{3000}Exam\u{85}", "a", String(repeating: "x", count: 80), " " + String(repeating: "x", count: 80) + "\n",
                     String(repeating: "x", count: 81), "", "   ", "Lob\tby", "Lob\u{1}by", "Lob\u{7F}", "Lobby\u{FFFE}", "x\ny"]
        for name in names {
            let domainAccepts = GroupDraft(name: name).validate().isEmpty
            #expect(try await documentAccepts(fieldSchema("GroupInput", "name"), name) == domainAccepts, "\(name.debugDescription)")
        }
        let bundleIDs = ["com.example.app", " com.example.app\n", "com", "com..app", "com.exa mple", "com.ex\u{1}", "com.ëxample", "-.-",
                         "a." + String(repeating: "b", count: 153), "a." + String(repeating: "b", count: 154)]
        for bundleID in bundleIDs {
            let domainAccepts = CatalogAppDraft(name: "App", bundleID: bundleID).validate()["bundleID"] == nil
            #expect(try await documentAccepts(fieldSchema("AppInput", "bundleID"), bundleID) == domainAccepts, "\(bundleID.debugDescription)")
        }
        let device = DeviceDraft(name: "Kiosk", model: .iPad, osVersion: "17.4", serialNumber: "DMPXK2ABCD",
                                 udid: "00008101-000A1B2C3D4E5F60", isSupervised: true)
        let fields: [(String, [String], WritableKeyPath<DeviceDraft, String>)] = [
            ("serialNumber", ["dmpxk2abcd", " DMPXK2AB ", "DMPXK2A", "DMPXK2ABCDEFGHI", "ıııııııı", "DMPXK2ABC\u{FF21}"], \.serialNumber),
            ("udid", ["00008101-000a1b2c3d4e5f60", String(repeating: "f", count: 40), "00008101-000A1B2C3D4E5F6", "00008101_000A1B2C3D4E5F60",
                      String(repeating: "\u{FF10}", count: 40)], \.udid),
            ("osVersion", ["17", "17.4", "18.1.2", " 9.3 ", "17.4.1.1", "1000.1", "17.", "١٧.٤"], \.osVersion),
            ("owner", ["", "  ", "Dr. Amal Haddad", "Dr.\u{1B}", String(repeating: "o", count: 121)], \.owner),
        ]
        for (field, samples, keyPath) in fields {
            for sample in samples {
                var draft = device
                draft[keyPath: keyPath] = sample
                let domainAccepts = draft.validate()[field] == nil
                #expect(try await documentAccepts(fieldSchema("DeviceInput", field), sample) == domainAccepts, "\(field) \(sample.debugDescription)")
            }
        }
        for color in ["", "#1e88E5", " #1e88e5 ", "#1e88e", "1e88e5", "#ｆｆｆｆｆｆ"] {
            let domainAccepts = CatalogAppDraft(name: "App", bundleID: "com.example.app", iconColor: color).validate()["iconColor"] == nil
            #expect(try await documentAccepts(fieldSchema("AppInput", "iconColor"), color) == domainAccepts, "\(color.debugDescription)")
        }
        for description in ["", "Line one\n\tLine two\r\n", "Bell\u{7}", String(repeating: "d", count: 20_001)] {
            let domainAccepts = ProfileRules.descriptionProblem(description) == nil
            #expect(try await documentAccepts(fieldSchema("ProfileInput", "description"), description) == domainAccepts, "\(description.prefix(20).debugDescription)")
        }
    }

    @Test func anIfMatchIsAVersionAsTheETagGivesItOrAStar() async throws {
        #expect(IfMatch("\"3\"") == .version(3))
        #expect(IfMatch("W/\"3\"") == .version(3))
        #expect(IfMatch("3") == .version(3))
        #expect(IfMatch("*") == .anyVersion)
        for malformed in ["", "\"3", "3\"", "\"\"", "three", "\"-3\"", "W/", "**", "1234567890123456789", "\"٣\""] {
            #expect(IfMatch(malformed) == nil, "\(malformed)")
        }
        let pattern = try #require(try await parameters("/api/v1/profiles/{id}", "put").first { $0["name"] as? String == "If-Match" }?["schema"] as? [String: Any])
        for header in ["\"3\"", "W/\"3\"", "3", "*", "", "\"3", "three", "**", "1234567890123456789"] {
            #expect(try documentAccepts(pattern, header) == (IfMatch(header) != nil), "\(header)")
        }
    }
}
