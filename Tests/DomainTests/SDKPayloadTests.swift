import Domain
import Foundation
import Testing

/// The rules of the SDK payloads added for issue 15: what each accepts, how several profiles'
/// payloads combine, and the key names of the SDK profile.
@Suite struct SDKPayloadTests {
    func reaching(_ id: Int64, distance: Int, _ payloads: [Payload]) -> ReachingProfile {
        ReachingProfile(
            source: PolicySource(profileID: id, profileName: "Profile \(id)", version: 1, groupName: "Group \(distance)", groupDistance: distance),
            content: payloads.reduce(ProfileContent(name: "Profile \(id)")) { $0.setting($1) })
    }

    @Test(arguments: [
        ("<settings><kiosk>true</kiosk></settings>", CustomSettingsFormat.xml),
        ("  {\"kiosk\": true}", .json), ("[1, 2]", .json),
        ("kiosk=true\nserver: https://example.com\n# a comment", .keyValue),
        ("name,room\nAnna,3\nBen,4", .csv),
        ("Open the lobby at eight.", .plain),
    ])
    func customSettingsSayWhichFormatTheyReadAs(text: String, format: CustomSettingsFormat) {
        #expect(CustomSettings(text: text).format == format)
        #expect(CustomSettings(text: text).validate().isEmpty)
    }

    @Test func brokenJSONAndXMLAreRefusedWithTheLineAndColumn() throws {
        let json = CustomSettings(text: "{\n  \"a\": 1,\n  \"b\": 2,\n}").validate()
        let jsonMessage = try #require(json["text"])
        #expect(jsonMessage.contains("line 3"), "\(jsonMessage)")
        let xml = CustomSettings(text: "<a>\n  <b></c>\n</a>").validate()
        let xmlMessage = try #require(xml["text"])
        #expect(xmlMessage.contains("line 2"), "\(xmlMessage)")
    }

    @Test func xmlThatDeclaresEntitiesIsRefusedNotExpanded() throws {
        let xxe = #"<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"#
        #expect(CustomSettings(text: xxe).validate()["text"] != nil)
        let laughs = #"<!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><l>&b;</l>"#
        #expect(CustomSettings(text: laughs).validate()["text"] != nil)
    }

    @Test func customSettingsAreAtMost64KBAndNotEmpty() {
        #expect(CustomSettings(text: String(repeating: "a", count: 65_536)).validate().isEmpty)
        #expect(CustomSettings(text: String(repeating: "a", count: 65_537)).validate()["text"] != nil)
        #expect(CustomSettings(text: "  \n ").validate()["text"] != nil)
        #expect(CustomSettings(text: "a\u{0}b").validate()["text"] != nil)
    }

    @Test func complianceRulesNeedAppleVersionsAndBundleIDs() {
        let good = ComplianceRule(subject: .app("com.example.notes"), comparison: .lessThan, version: "5.2", action: .block)
        #expect(Compliance(rules: [good]).validate().isEmpty)
        #expect(Compliance(rules: []).validate()["rules"] != nil)
        var badVersion = good
        badVersion.version = "5.2-beta"
        #expect(Compliance(rules: [good, badVersion]).validate()["rules.1.version"] != nil)
        let badApp = ComplianceRule(subject: .app("notes"), comparison: .lessThan, version: "5", action: .wipe)
        #expect(Compliance(rules: [badApp]).validate()["rules.0.app"] != nil)
        #expect(Compliance(rules: [good, good]).validate()["rules.1.version"] == "The same rule is already in the list.")
    }

    @Test func complianceRulesTravelFlatInJSON() throws {
        let rule = ComplianceRule(subject: .app("com.example.notes"), comparison: .greaterThanOrEqual, version: "5.2", action: .wipe)
        let json = String(decoding: try JSONEncoder().encode(rule), as: UTF8.self)
        #expect(json.contains(#""subject":"app-version""#) && json.contains(#""appIdentifier":"com.example.notes""#))
        #expect(try JSONDecoder().decode(ComplianceRule.self, from: Data(json.utf8)) == rule)
        let os = try JSONDecoder().decode(ComplianceRule.self, from: Data(#"{"subject":"os-version","comparison":"lessThan","version":"17","action":"block"}"#.utf8))
        #expect(os.subject == .operatingSystem)
    }

    @Test func aListedHostNeedsItsPortOnlyWhenItIsNotAStandardOne() {
        #expect(AppTunnel(mode: .split, directAddresses: ["data.example.com:7777", "https://intranet.example.com:443/wiki"]).validate().isEmpty)
        // Seed 004 asks for the port only when it is not 80 or 443: a bare host is accepted.
        #expect(AppTunnel(mode: .split, directAddresses: ["data.example.com", "https://wiki.example.com"]).validate().isEmpty)
        #expect(AppTunnel(mode: .split, directAddresses: ["data.example.com:70000"]).validate()["addresses.0"] != nil)
        #expect(AppTunnel(mode: .split, directAddresses: ["ftp://data.example.com:21"]).validate()["addresses.0"] != nil)
        #expect(AppTunnel(mode: .split, directAddresses: ["data.example.com:"]).validate()["addresses.0"] != nil)
        #expect(AppTunnel(mode: .split, directAddresses: []).validate()["addresses"] != nil)
        #expect(AppTunnel(mode: .everything, directAddresses: ["a.example.com:1"]).validate()["addresses"] != nil)
        #expect(AppTunnel(mode: .split, directAddresses: ["a.example.com:1", "A.example.com:1"]).validate()["addresses.1"] == "A.example.com:1 is already in the list.")
        let covered = AppTunnel(mode: .split, directAddresses: ["a.example.com", "a.example.com:443"]).validate()["addresses.1"]
        #expect(covered == "a.example.com:443 is already covered by a.example.com (a host without a port means 80 and 443).")
        #expect(AppTunnel(mode: .split, directAddresses: ["a.example.com", "a.example.com:8443"]).validate().isEmpty)
    }

    @Test func theTunnelRoutesByHostAndPort() {
        let tunnel = AppTunnel(mode: .split, directAddresses: ["data.example.com:7777"])
        #expect(tunnel.route("https://data.example.com:7777/report").tunnelled == false)
        #expect(tunnel.route("https://data.example.com/report").tunnelled == true, "port 443 is not the listed 7777")
        #expect(tunnel.route("http://printer.local:80").tunnelled == false)
        #expect(AppTunnel().route("https://data.example.com:7777").tunnelled == true)
    }

    @Test func aListedHostWithoutAPortGoesDirectOnPorts80And443Only() {
        let tunnel = AppTunnel(mode: .split, directAddresses: ["Data.example.com", "https://secure.example.com"])
        #expect(tunnel.route("https://data.example.com/report").tunnelled == false)
        #expect(tunnel.route("http://data.example.com/report").tunnelled == false)
        #expect(tunnel.route("https://data.example.com:443").reason == "Data.example.com is listed to go direct.")
        #expect(tunnel.route("https://data.example.com:8443/report").tunnelled == true, "a bare host means 80 and 443, not every port")
        #expect(tunnel.route("https://secure.example.com").tunnelled == false)
        #expect(tunnel.route("http://secure.example.com").tunnelled == true, "https:// without a port lists 443 alone")
    }

    @Test func integratedAuthenticationAnswersOnlyAllowedSites() {
        let integrated = IntegratedAuthentication(allowedSites: ["*.example.com", "wiki.partner.org"])
        #expect(integrated.validate().isEmpty)
        #expect(integrated.answers("share.example.com") && integrated.answers("WIKI.partner.org"))
        #expect(!integrated.answers("example.com") && !integrated.answers("evil-example.com"))
        #expect(IntegratedAuthentication(allowedSites: ["wiki.*.com"]).validate()["sites.0"] != nil)
        #expect(IntegratedAuthentication(allowedSites: []).validate()["sites"] != nil)
        #expect(IntegratedAuthentication(enabled: false, allowedSites: []).validate().isEmpty)
        #expect(IntegratedAuthentication(allowedSites: ["-bad.example.com"]).validate()["sites.0"] != nil)
    }

    @Test func everyComplianceRuleOfEveryProfileApplies() throws {
        let oldIOS = ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17", action: .block)
        let oldNotes = ComplianceRule(subject: .app("com.example.notes"), comparison: .lessThan, version: "5.2", action: .wipe)
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(Compliance(rules: [oldIOS]))]),
            reaching(2, distance: 2, [Payload(Compliance(rules: [oldNotes, oldIOS]))]),
        ])
        #expect(policy[Compliance.self]?.value.rules == [oldIOS, oldNotes], "both profiles' rules, the shared one once")
        #expect(policy[Compliance.self]?.sources.count == 2)
        #expect(try #require(DevicePolicy(policy))[Compliance.self]?.rules == [oldIOS, oldNotes])
    }

    @Test func compromisedProtectionTakesTheMostRestrictiveAnswer() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(CompromisedProtection(enabled: false, action: .wipe))]),
            reaching(2, distance: 1, [Payload(CompromisedProtection(enabled: true, action: .block))]),
        ])
        // On because one profile turns it on; a wipe from a profile that turns it off does not count.
        #expect(policy[CompromisedProtection.self]?.value == CompromisedProtection(enabled: true, action: .block))
        let wiping = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(CompromisedProtection(action: .block))]),
            reaching(2, distance: 1, [Payload(CompromisedProtection(action: .wipe))]),
        ])
        #expect(wiping[CompromisedProtection.self]?.value.action == .wipe)
    }

    @Test func theNearestGroupsTunnelWins() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 1, [Payload(AppTunnel())]),
            reaching(2, distance: 0, [Payload(AppTunnel(mode: .split, directAddresses: ["a.example.com:1"]))]),
        ])
        #expect(policy[AppTunnel.self]?.value.mode == .split)
    }

    @Test func theSDKProfileNamesEachNewPayload() throws {
        let input = ProfileExportInput(identifier: "com.example.p", uuid: "U", displayName: "P", description: "", organization: "", payloads: [
            Payload(CustomSettings(text: "a=1")),
            Payload(Compliance(rules: [ComplianceRule(subject: .app("com.example.notes"), comparison: .lessThan, version: "5.2", action: .wipe)])),
            Payload(CompromisedProtection()), Payload(AppTunnel(mode: .split, directAddresses: ["a.example.com:1"])),
            Payload(IntegratedAuthentication(allowedSites: ["*.example.com"])), Payload(Analytics()),
        ].map { ExportedPayload(payload: $0, uuid: "U") })
        let json = try #require(try JSONSerialization.jsonObject(with: SDKProfile.json(for: input)) as? [String: Any])
        #expect((json["CustomSettings"] as? [String: Any])?["Settings"] as? String == "a=1")
        let rule = try #require(((json["Compliance"] as? [String: Any])?["Rules"] as? [[String: Any]])?.first)
        #expect(rule["ApplicationIdentifier"] as? String == "com.example.notes" && rule["Operator"] as? String == "LessThan" && rule["Action"] as? String == "Wipe")
        #expect((json["AppTunnel"] as? [String: Any])?["AppTunnelURLs"] as? [String] == ["a.example.com:1"])
        #expect((json["IntegratedAuthentication"] as? [String: Any])?["AllowedSites"] as? [String] == ["*.example.com"])
        #expect((json["Analytics"] as? [String: Any])?["Enabled"] as? Bool == true)
        #expect((json["CompromisedProtection"] as? [String: Any])?["Action"] as? String == "Block")
    }
}
