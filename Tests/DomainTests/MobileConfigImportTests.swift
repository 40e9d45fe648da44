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
        let apple: [Payload] = [Payload(lock), Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.quiz"]))]
        let all = apple + [Payload(DataLossPrevention(allowCopyPasteOut: false))]
        let first = exported(all)
        let imported = try read(first)
        #expect(imported.payloads == all)
        #expect(imported.name == "Lobby kiosk" && imported.identifier == "com.example.kiosk" && imported.description == "For the lobby")
        #expect(imported.leftOut.isEmpty)
        let again = exported(imported.payloads)
        #expect(try read(again).payloads == all)
        #expect(again == first)
    }

    /// Every SDK kind the vendor payload carries comes back, as the samples of the registry test
    /// give them; branding is listed (its logos live in the exporting console). Certificates
    /// come back as their bytes, for the app layer to read.
    @Test func sdkSettingsComeBackFromTheVendorPayload() throws {
        let kinds = PayloadKind.allCases.filter { $0.isSDKPayload && ![.branding, .managedAppConfig].contains($0) }
        let sent = kinds.compactMap(PayloadKindRegistryTests.sample(of:)) + [Payload(Branding())]
        let imported = try read(exported(sent))
        #expect(imported.payloads.map(\.kind) == kinds)
        for (payload, original) in zip(imported.payloads, sent) {
            if let pinning = payload.settings(as: CertificatePinning.self), let expected = original.settings(as: CertificatePinning.self) {
                #expect(pinning.hosts == expected.hosts && pinning.certificates.map(\.der) == expected.certificates.map(\.der))
            } else {
                #expect(payload == original, "\(payload.kind)")
            }
        }
        #expect(imported.leftOut.map(\.name) == ["SDK settings › Branding"])
    }

    /// Managed app configuration is not in this console's exports, but a file that carries it
    /// in the SDK settings brings typed keys; a value the form has no type for leaves it out.
    @Test func aManagedAppConfigurationComesAcrossWithTypedKeys() throws {
        func profile(_ configuration: [(String, PropertyList)]) -> PropertyList {
            .dictionary([
                ("PayloadType", .string("Configuration")), ("PayloadIdentifier", .string("com.example.config")),
                ("PayloadContent", .array([.dictionary([
                    ("PayloadType", .string("com.payloadconsole.sdk")),
                    ("ManagedAppConfiguration", .dictionary([("Identifier", .string("com.example.notes")), ("Configuration", .dictionary(configuration))])),
                ])])),
            ])
        }
        let imported = try read(profile([("serverURL", .string("https://notes.example.com")), ("retries", .integer(3)),
                                         ("kioskMode", .boolean(true)), ("wards", .array([.string("3A"), .string("4B")]))]))
        #expect(imported.payloads == [Payload(ManagedAppConfiguration(appIdentifier: "com.example.notes", keys: [
            ConfigKey(name: "serverURL", type: .string, value: .string("https://notes.example.com")),
            ConfigKey(name: "retries", type: .integer, value: .integer(3)),
            ConfigKey(name: "kioskMode", type: .boolean, value: .boolean(true)),
            ConfigKey(name: "wards", type: .stringArray, value: .stringArray(["3A", "4B"])),
        ]))])
        let nested = try read(profile([("proxy", .dictionary([("host", .string("p.example.com"))]))]))
        #expect(nested.payloads.isEmpty)
        #expect(nested.leftOut.first?.reason.hasPrefix("Configuration.proxy is a value the form cannot hold") == true)
    }

    @Test func sdkSettingsOutOfShapeAreListedWithTheReason() throws {
        let plist = PropertyList.dictionary([
            ("PayloadType", .string("Configuration")), ("PayloadIdentifier", .string("com.example.sdk")),
            ("PayloadContent", .array([.dictionary([
                ("PayloadType", .string("com.payloadconsole.sdk")), ("PayloadIdentifier", .string("com.example.sdk.sdk")),
                ("Logging", .dictionary([("Enabled", .string("yes")), ("Level", .string("Error")), ("WiFiOnly", .boolean(false))])),
                ("Authentication", .dictionary([("AuthenticationType", .string("Retina")), ("SingleSignOn", .boolean(true)),
                                                ("OfflineAccess", .dictionary([("Enabled", .boolean(true)), ("MaximumOfflineMinutes", .integer(60))]))])),
                ("AppTunnel", .dictionary([("Mode", .string("Split")), ("AppTunnelURLs", .array([.string("bad-port.example.com:99999")]))])),
                ("Teleport", .dictionary([])),
                ("Analytics", .string("on")),
                ("CompromisedProtection", .dictionary([("Enabled", .boolean(true)), ("Action", .string("Wipe"))])),
            ])])),
        ])
        let imported = try read(plist)
        #expect(imported.payloads == [Payload(CompromisedProtection(enabled: true, action: .wipe))])
        let reasons = Dictionary(uniqueKeysWithValues: imported.leftOut.map { ($0.name, $0.reason) })
        #expect(reasons["SDK settings › Logging"] == "Enabled is missing or not true or false.")
        #expect(reasons["SDK settings › Authentication"]?.hasPrefix("AuthenticationType “Retina” is not one of:") == true)
        #expect(reasons["SDK settings › AppTunnel"]?.hasPrefix("Refused:") == true, "the tunnel's own rule: addresses name their port")
        #expect(reasons["SDK settings › Teleport"] == "Teleport is not an SDK setting this console knows.")
        #expect(reasons["SDK settings › Analytics"] == "Analytics is not a dictionary.")
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
        #expect(imported.payloads == [Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam"])), Payload(SingleAppMode(appIdentifier: "com.example.kiosk"))])
        let reasons = imported.leftOut.map(\.reason)
        #expect(imported.leftOut.first?.name == "Office Wi-Fi" && reasons[0] == "Not a payload this console manages.")
        #expect(reasons[1].contains("allowCamera") && reasons[2].contains("other than the ASAM allowlist"))
        #expect(reasons[3].hasPrefix("Refused:"), "an invalid bundle ID is not imported")
        #expect(reasons[4].contains("DisableWarp"))
    }

    @Test func aTunnelAddressWithoutAPortSurvivesExportAndImport() throws {
        let tunnel = Payload(AppTunnel(mode: .split, directAddresses: ["data.example.com", "files.example.com:7777"]))
        let imported = try read(exported([tunnel]))
        #expect(imported.payloads == [tunnel])
        #expect(imported.leftOut.isEmpty)
    }

    @Test func whatIsNotAProfileIsRefused() throws {
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.array([])) }
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.dictionary([("PayloadType", .string("com.apple.wifi.managed"))])) }
        #expect(throws: ImportProblem.self) { try MobileConfigImport.read(.dictionary([("PayloadType", .string("Configuration"))])) }
    }
}
