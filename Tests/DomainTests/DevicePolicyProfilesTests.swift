import Domain
import Testing

/// What a real device carries is the effective policy itself, combined as the device page says:
/// the intersected ASAM allowlist in one profile, Single App Mode alone once it can be
/// installed, nothing changed while profiles conflict.
@Suite struct DevicePolicyProfilesTests {
    func reaching(_ id: Int64, _ payloads: [Payload]) -> ReachingProfile {
        ReachingProfile(source: PolicySource(profileID: id, profileName: "Profile \(id)", version: 1, groupName: "Exams", groupDistance: 0),
                        content: payloads.reduce(ProfileContent(name: "Profile \(id)")) { $0.setting($1) })
    }

    let supervisedWithKiosk = DevicePolicyProfiles.Device(isSupervised: true, installedApps: ["com.example.kiosk"])

    func targets(_ profiles: [ReachingProfile], device: DevicePolicyProfiles.Device) -> [String: DevicePolicyProfiles.Target] {
        Dictionary(uniqueKeysWithValues: DevicePolicyProfiles.targets(for: EffectivePolicy.compute(from: profiles), device: device,
                                                                      organization: "Example School", stableUUID: { "uuid-" + $0 }))
    }

    func carried(_ target: DevicePolicyProfiles.Target?) -> ProfileExportInput? {
        if case .carry(let input)? = target { return input }
        return nil
    }

    @Test func twoAllowlistsTravelAsTheirIntersection() throws {
        let found = targets([reaching(1, [Payload(ASAMAllowlist(appIdentifiers: ["com.example.a", "com.example.b"]))]),
                             reaching(2, [Payload(ASAMAllowlist(appIdentifiers: ["com.example.b", "com.example.c"]))])], device: supervisedWithKiosk)
        let policy = try #require(carried(found[DevicePolicyProfiles.policyIdentifier]))
        let xml = MobileConfig.xml(for: policy)
        #expect(xml.contains("com.example.b") && !xml.contains("com.example.a") && !xml.contains("com.example.c"))
        #expect(policy.payloads.count == 1 && policy.organization == "Example School")
        #expect(policy.description.contains("Profile 1, Profile 2"))
        if case .absent(nil)? = found[DevicePolicyProfiles.singleAppModeIdentifier] {} else { Issue.record("no Single App Mode in the policy") }
    }

    @Test func payloadsKeepTheirUUIDsWhateverElseChanges() throws {
        let before = try #require(carried(targets([reaching(1, [Payload(ASAMAllowlist(appIdentifiers: ["com.example.a"]))])],
                                                   device: supervisedWithKiosk)[DevicePolicyProfiles.policyIdentifier]))
        let after = try #require(carried(targets([reaching(1, [Payload(ASAMAllowlist(appIdentifiers: ["com.example.z"])),
                                                               Payload(Logging(level: .debug))])],
                                                  device: supervisedWithKiosk)[DevicePolicyProfiles.policyIdentifier]))
        #expect(before.payloads[0].uuid == after.payloads[0].uuid)
        #expect(Set(after.payloads.map(\.uuid)).count == 2)
    }

    @Test func singleAppModeTravelsAloneOnlyToASupervisedDeviceWithItsApp() throws {
        let kiosk = [reaching(1, [Payload(SingleAppMode(appIdentifier: "com.example.kiosk")), Payload(Logging(level: .error))])]
        let ready = targets(kiosk, device: supervisedWithKiosk)
        let lock = try #require(carried(ready[DevicePolicyProfiles.singleAppModeIdentifier]))
        #expect(lock.payloads.count == 1 && MobileConfig.xml(for: lock).contains("com.apple.app.lock"))
        #expect(carried(ready[DevicePolicyProfiles.policyIdentifier]).map { !MobileConfig.xml(for: $0).contains("com.apple.app.lock") } == true,
                "the rest of the policy goes without the lock")

        let unsupervised = targets(kiosk, device: .init(isSupervised: false, installedApps: ["com.example.kiosk"]))
        #expect(unsupervised[DevicePolicyProfiles.singleAppModeIdentifier]?.reason?.contains("only on supervised devices") == true)
        #expect(carried(unsupervised[DevicePolicyProfiles.policyIdentifier]) != nil, "a held-back lock holds back nothing else")
        let missingApp = targets(kiosk, device: .init(isSupervised: true, installedApps: []))
        #expect(missingApp[DevicePolicyProfiles.singleAppModeIdentifier]?.reason?.contains("waits for com.example.kiosk") == true)
    }

    @Test func aConflictKeepsBothProfilesAsTheyAre() {
        let found = targets([reaching(1, [Payload(SingleAppMode(appIdentifier: "com.example.quiz"))]),
                             reaching(2, [Payload(SingleAppMode(appIdentifier: "com.example.exam"))])], device: supervisedWithKiosk)
        for identifier in DevicePolicyProfiles.identifiers {
            guard case .unchanged(let reason)? = found[identifier] else { Issue.record("\(identifier) should stay as it is"); continue }
            #expect(reason.contains("com.example.exam, com.example.quiz"))
        }
    }

    @Test func noPolicyMeansNoProfiles() {
        let found = targets([], device: supervisedWithKiosk)
        for identifier in DevicePolicyProfiles.identifiers {
            if case .absent(nil)? = found[identifier] {} else { Issue.record("\(identifier) should be absent") }
        }
    }
}
