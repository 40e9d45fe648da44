@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// A new DLP payload starts from the choices that protect managed data, so saving the form
/// unchanged adds a payload that restricts something (issue 24); a payload that allows
/// everything is called out before it is saved again.
@Suite struct DLPFormTests {
    func checked(_ body: String, _ name: String) -> String? {
        ["yes", "no"].first { body.contains(#"name="\#(name)" value="\#($0)" checked"#) }
    }

    @Test func aNewDLPPayloadStartsRestrictiveAndSavesThatWay() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await ProfileTests().adminWithProfile(console, client, name: "Clinic")
            let form = try await admin.get("/profiles/\(id)/payloads/dlp")
            #expect(form.body.contains(#"id="dlp-starts-restrictive""#))
            #expect(!form.body.contains(#"id="dlp-restricts-nothing""#))
            var fields = ["baseVersion": "1", "intent": "save"]
            for field in DataLossPrevention.fields {
                let answer = try #require(checked(form.body, field.sdkKey))
                #expect(answer == (DataLossPrevention.restrictive[keyPath: field.keyPath] ? "yes" : "no"))
                fields[field.sdkKey] = answer
            }
            #expect(checked(form.body, "CopyPasteOut") == "no" && checked(form.body, "OpenLinksInManagedBrowser") == "yes")
            // Saved as the form came: the payload protects managed data.
            #expect(try await admin.post("/profiles/\(id)/payloads/dlp", fields).status == .seeOther)
            let saved = try await console.services.profiles.latestVersion(of: RecordID(Int64(id)!)).content.payload(of: .dlp)
            #expect(saved == Payload(DataLossPrevention.restrictive))

            // An existing payload that allows everything says so on its form.
            for field in DataLossPrevention.fields { fields[field.sdkKey] = DataLossPrevention()[keyPath: field.keyPath] ? "yes" : "no" }
            fields["baseVersion"] = "2"
            #expect(try await admin.post("/profiles/\(id)/payloads/dlp", fields).status == .seeOther)
            let open = try await admin.get("/profiles/\(id)/payloads/dlp")
            #expect(open.body.contains(#"id="dlp-restricts-nothing""#))
            #expect(!open.body.contains(#"id="dlp-starts-restrictive""#), "an existing payload shows its own answers")
        }
    }
}
