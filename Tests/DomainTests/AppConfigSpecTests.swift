import Domain
import Foundation
import Testing

/// AppConfig specfiles read into typed keys: defaults, constraints and descriptions; files that
/// are not specfiles, or break the format, refused with the line and the reason.
@Suite struct AppConfigSpecTests {
    static func specfile(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Specfiles/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A specfile around `dict`, for the failure cases.
    func wrapped(_ dict: String, version: String = "1", bundle: String = "com.example.app") -> String {
        "<managedAppConfiguration>\n<version>\(version)</version>\n<bundleId>\(bundle)</bundleId>\n<dict>\n\(dict)\n</dict>\n</managedAppConfiguration>"
    }

    func refusal(_ text: String) -> ImportProblem? {
        do {
            _ = try AppConfigSpecReader.read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRealisticSpecfileBecomesTypedKeys() throws {
        let spec = try AppConfigSpecReader.read(try Self.specfile("clinic-notes.xml"))
        #expect(spec.bundleID == "com.example.clinicnotes" && spec.version == 3)
        let keys = Dictionary(uniqueKeysWithValues: spec.keys.map { ($0.name, $0) })
        #expect(spec.keys.map(\.name) == ["serverURL", "ward", "userEmail", "sessionMinutes", "fontScale", "allowPrinting", "theme", "printers", "goLive"])
        #expect(keys["serverURL"]?.value == .string("https://notes.example.com") && keys["serverURL"]?.pattern == "https://.+")
        #expect(keys["serverURL"]?.required == true)
        #expect(keys["serverURL"]?.description == "Server address: Where the app syncs notes.", "the default locale's words")
        #expect(keys["ward"]?.required == false && keys["ward"]?.minimum == 1 && keys["ward"]?.maximum == 12 && keys["ward"]?.value == nil)
        #expect(keys["ward"]?.description == "Ward", "a field inside a group counts too")
        #expect(keys["userEmail"]?.value == nil && keys["userEmail"]?.description?.contains("emailAddress") == true)
        #expect(keys["sessionMinutes"]?.value == .integer(30) && keys["sessionMinutes"]?.minimum == 5 && keys["sessionMinutes"]?.maximum == 480)
        #expect(keys["fontScale"]?.type == .real && keys["fontScale"]?.value == .real(1.25))
        #expect(keys["allowPrinting"]?.value == .boolean(false))
        #expect(keys["theme"]?.allowedValues == ["light", "dark", "system"])
        #expect(keys["printers"]?.value == .stringArray(["lobby", "ward-3b"]) && keys["printers"]?.maximum == 5)
        #expect(keys["goLive"]?.type == .date)
        #expect(spec.skipped.map(\.keyName) == ["retryDelays"] && spec.skipped.first?.line == 37)
    }

    @Test(arguments: [
        ("<plist version=\"1.0\"><dict/></plist>", 1, "managedAppConfiguration"),
        ("<managedAppConfiguration><bundleId>com.example.app</bundleId><dict/></managedAppConfiguration>", 1, "no <version>"),
    ])
    func notASpecfileIsRefused(text: String, line: Int, reason: String) throws {
        let problem = try #require(refusal(text))
        #expect(problem.line == line && problem.reason.contains(reason), "\(problem)")
    }

    @Test func brokenFilesAreRefusedWithTheLineAndReason() throws {
        let cases: [(String, Int, String)] = [
            (wrapped("<integer keyName=\"n\"><defaultValue><value>many</value></defaultValue></integer>"), 5, "n: the default many"),
            (wrapped("<string keyName=\"a\"/>\n<string keyName=\"a\"/>"), 6, "described twice"),
            (wrapped("<string/>"), 5, "no keyName"),
            (wrapped("<widget keyName=\"w\"/>"), 5, "not a key type"),
            (wrapped("<string keyName=\"s\"><constraint pattern=\"([a-z\"/></string>"), 5, "not a valid regular expression"),
            (wrapped("<integer keyName=\"n\"><defaultValue><value>900</value></defaultValue><constraint max=\"10\"/></integer>"), 5, "at most 10"),
            (wrapped("<string keyName=\"s\"/>", version: "zero"), 2, "<version>"),
            (wrapped("<string keyName=\"s\"/>", bundle: "not a bundle"), 3, "bundle ID"),
            (wrapped("<string keyName=\"s\">\n<constraint min=\"3\"></string>"), 6, "closed by"),
            (wrapped("<boolean keyName=\"b\"><defaultValue><value>yes</value></defaultValue></boolean>"), 5, "true or false"),
        ]
        for (text, line, reason) in cases {
            let problem = try #require(refusal(text), "accepted: \(text)")
            #expect(problem.line == line && problem.reason.contains(reason), "\(problem) for \(text)")
        }
    }

    @Test func hostileFilesAreRefusedSafely() throws {
        let xxe = "<!DOCTYPE m [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" + wrapped("<string keyName=\"s\"><defaultValue><value>&e;</value></defaultValue></string>")
        #expect(refusal(xxe) != nil)
        var laughs = "<!DOCTYPE m [<!ENTITY l0 \"lol\">"
        for level in 1...9 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        laughs += "]>" + wrapped("<string keyName=\"s\"><defaultValue><value>&l9;</value></defaultValue></string>")
        #expect(refusal(laughs) != nil)
        let deep = wrapped(String(repeating: "<string keyName=\"s\">", count: 5_000))
        #expect(refusal(deep) != nil)
        let huge = wrapped("<string keyName=\"s\"><defaultValue><value>" + String(repeating: "a", count: 1_100_000) + "</value></defaultValue></string>")
        #expect(refusal(huge)?.reason.contains("1 MB") == true)
    }
}
