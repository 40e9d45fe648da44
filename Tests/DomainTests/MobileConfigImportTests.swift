import Domain
import Foundation
import Testing

/// A .mobileconfig read back: the payloads this console knows come across, the rest is listed
/// with the reason, and export → import → export gives the same payloads.
@Suite struct MobileConfigImportTests {
    func exported(_ payloads: [Payload], identifier: String = "com.example.kiosk") -> PropertyList {
        MobileConfig.propertyList(for: ProfileExportInput(
            identifier: identifier, uuid: "P", displayName: "Lobby kiosk", description: "For the lobby", organization: "Example",
            payloads: payloads.enumerated().map { ExportedPayload(payload: $1, uuid: "U\($0)") }))
    }

    func read(_ plist: PropertyList) throws -> MobileConfigImport {
        try MobileConfigImport.read(try PropertyListReader.read(plist.xmlDocument()))
    }

    @Test func exportImportExportGivesTheSamePayloads() throws {
        var lock = SingleAppMode(appIdentifier: "com.example.checkin")
        lock.options.disableAutoLock = true
        lock.userEnabledOptions.voiceOver = true
        let apple: [Payload] = [.singleAppMode(lock), .asamAllowlist(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.quiz"]))]
        let first = exported(apple + [.dlp(DataLossPrevention(allowCopyPasteOut: false))])
        let imported = try read(first)
        #expect(imported.payloads == apple)
        #expect(imported.name == "Lobby kiosk" && imported.identifier == "com.example.kiosk" && imported.description == "For the lobby")
        #expect(imported.leftOut.map(\.payloadType) == ["com.payloadconsole.sdk"], "SDK settings are listed, not silently dropped")
        let again = exported(imported.payloads)
        #expect(try read(again).payloads == apple)
        #expect(again == exported(apple), "the second export is the first without the SDK settings")
    }

    @Test func whatTheConsoleDoesNotManageIsListedWithTheReason() throws {
        let plist = PropertyList.dictionary([
            ("PayloadType", .string("Configuration")), ("PayloadIdentifier", .string("com.example.mixed")),
            ("PayloadDisplayName", .string("Mixed")),
            ("PayloadContent", .array([
                .dictionary([("PayloadType", .string("com.apple.wifi.managed")), ("PayloadDisplayName", .string("Office Wi-Fi"))]),
                .dictionary([("PayloadType", .string("com.apple.applicationaccess")), ("allowCamera", .boolean(false)),
                             ("autonomousSingleAppModePermittedAppIDs", .array([.string("com.example.exam")]))]),
                .dictionary([("PayloadType", .string("com.apple.applicationaccess")), ("allowCamera", .boolean(false))]),
                .dictionary([("PayloadType", .string("com.apple.app.lock")), ("App", .dictionary([("Identifier", .string("not a bundle id"))]))]),
                .dictionary([("PayloadType", .string("com.apple.app.lock")),
                             ("App", .dictionary([("Identifier", .string("com.example.kiosk")), ("Options", .dictionary([("DisableWarp", .boolean(true))]))]))]),
            ])),
        ])
        let imported = try read(plist)
        #expect(imported.payloads == [.asamAllowlist(ASAMAllowlist(appIdentifiers: ["com.example.exam"])), .singleAppMode(SingleAppMode(appIdentifier: "com.example.kiosk"))])
        let reasons = imported.leftOut.map(\.reason)
        #expect(imported.leftOut.first?.name == "Office Wi-Fi" && reasons[0] == "Not a payload this console manages.")
        #expect(reasons[1].contains("allowCamera") && reasons[2].contains("other than the ASAM allowlist"))
        #expect(reasons[3].hasPrefix("Refused:"), "an invalid bundle ID is not imported")
        #expect(reasons[4].contains("DisableWarp"))
    }

    @Test func whatIsNotAProfileIsRefused() throws {
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.array([])) }
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.dictionary([("PayloadType", .string("com.apple.wifi.managed"))])) }
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.dictionary([("PayloadType", .string("Configuration"))])) }
    }
}
