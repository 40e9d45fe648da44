@testable import App
import Domain
import Foundation
import Testing

/// The simulator's action names are one enum: every name parses into the action it names, an
/// unknown one is refused with the list, and the API document and the simulator page use only
/// declared names.
@Suite struct SimulatorActionNameTests {
    /// Fields that satisfy every action, so only the name decides what is parsed.
    static let fields = [
        "app": "com.example.exam", "passcode": "1234", "minutes": "30", "latitude": "52.52", "longitude": "13.405",
        "network": "wifi", "thirdParty": "yes", "text": "copied", "level": "warning", "version": "17.4",
        "jailbroken": "no", "url": "https://api.example.com", "address": "help@example.com",
        "control": HardwareControl.allCases[0].rawValue, "feature": AccessibilityFeature.allCases[0].rawValue,
    ]

    @Test func everyNameParsesIntoTheActionItNames() async throws {
        for name in SimulatorAction.Name.allCases {
            let action = try SimulatorActionParser.parse { $0 == "action" ? name.rawValue : Self.fields[$0] }
            #expect(action.name == name, "\(name.rawValue) parsed as \(action)")
        }
    }

    @Test func anUnknownNameIsRefusedWithEveryName() {
        #expect(throws: SimulatorActionParser.Problem(
            field: "action", message: "Unknown action teleport. Use one of: \(SimulatorAction.Name.allCases.map(\.rawValue).joined(separator: ", ")).")) {
            try SimulatorActionParser.parse { $0 == "action" ? "teleport" : Self.fields[$0] }
        }
        #expect(throws: SimulatorActionParser.Problem(field: "action", message: "Say which action, such as launchApp.")) {
            try SimulatorActionParser.parse { _ in nil }
        }
    }

    @Test func theDocumentListsExactlyTheNames() async throws {
        let components = try #require((try await TestConsole.openAPIDocument())["components"] as? [String: Any])
        let schema = try #require((components["schemas"] as? [String: Any])?["SimulatorAction"] as? [String: Any])
        let action = try #require((schema["properties"] as? [String: Any])?["action"] as? [String: Any])
        #expect(action["enum"] as? [String] == SimulatorAction.Name.allCases.map(\.rawValue))
    }

    /// A template is text the compiler never sees: each action its forms post must be a name.
    @Test func everyActionTheSimulatorPagePostsIsAName() async throws {
        let folder = TestConsole.packageRoot.appendingPathComponent("Templates/simulator")
        let pattern = try NSRegularExpression(pattern: #"name="action" value="([^"]*)""#)
        var posted: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                posted.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        #expect(posted.count > 20, "the page posts most actions")
        #expect(posted.subtracting(SimulatorAction.Name.allCases.map(\.rawValue)).isEmpty)
    }
}
