import Domain
import Testing

@Suite struct EffectivePolicyTests {
    func reaching(_ id: Int64, distance: Int, _ payloads: [Payload]) -> ReachingProfile {
        ReachingProfile(
            source: PolicySource(profileID: id, profileName: "Profile \(id)", version: 1, groupName: "Group \(distance)", groupDistance: distance),
            content: payloads.reduce(ProfileContent(name: "Profile \(id)")) { $0.setting($1) })
    }

    @Test func aConflictNamesEachAppOnce() {
        let lockA = Payload(SingleAppMode(appIdentifier: "com.example.a"))
        let policy = EffectivePolicy.compute(from: [reaching(1, distance: 0, [lockA]), reaching(2, distance: 1, [lockA]),
                                                    reaching(3, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.example.b"))])])
        #expect(policy.conflictApps == ["com.example.a", "com.example.b"], "two profiles locking the same app are one app of the conflict")
    }

    @Test func dlpTakesTheMostRestrictiveAnswerPerSetting() {
        let lenient = DataLossPrevention(allowCopyPasteOut: true, allowThirdPartyKeyboards: false)
        let strict = DataLossPrevention(allowCopyPasteOut: false, openLinksInManagedBrowser: true)
        let policy = EffectivePolicy.compute(from: [reaching(1, distance: 0, [Payload(lenient)]), reaching(2, distance: 1, [Payload(strict)])])
        let dlp = try! #require(policy[DataLossPrevention.self])
        #expect(dlp.value.allowCopyPasteOut == false)
        #expect(dlp.value.allowThirdPartyKeyboards == false)
        #expect(dlp.value.openLinksInManagedBrowser == true)
        #expect(dlp.value.allowComposeEmail == true)
        #expect(dlp.sources.count == 2)
    }

    @Test func asamListsIntersectAndWarn() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(ASAMAllowlist(appIdentifiers: ["com.a.exam", "com.b.quiz"]))]),
            reaching(2, distance: 2, [Payload(ASAMAllowlist(appIdentifiers: ["com.b.quiz", "com.c.other"]))]),
        ])
        #expect(policy[ASAMAllowlist.self]?.value.appIdentifiers == ["com.b.quiz"])
        #expect(policy.warnings.contains { $0.contains("ASAM allowlist is set by 2 profiles") })
    }

    @Test func aProfileIsToldOfTheConflictsAndOverlapsItTakesPartIn() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(SingleAppMode(appIdentifier: "com.a.kiosk")), Payload(ASAMAllowlist(appIdentifiers: ["com.a.exam"]))]),
            reaching(2, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.b.kiosk"))]),
            reaching(3, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.b.kiosk")), Payload(ASAMAllowlist(appIdentifiers: ["com.a.exam"]))]),
            reaching(4, distance: 2, [Payload(Logging(level: .error))]),
        ])
        #expect(policy.problems(involving: 2, in: "Lobby") == [
            "Conflict in Lobby: Single App Mode for com.a.kiosk (Profile 1) and com.b.kiosk (Profile 2) and com.b.kiosk (Profile 3). Devices there keep their previous policy.",
        ])
        #expect(policy.problems(involving: 3, in: "Lobby").last == "In Lobby the ASAM allowlist is set by Profile 1, Profile 3; only apps on every list remain: com.a.exam.")
        #expect(policy.problems(involving: 4, in: "Lobby").isEmpty)
    }

    @Test func disjointASAMListsLeaveNoAppAllowed() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(ASAMAllowlist(appIdentifiers: ["com.a.exam"]))]),
            reaching(2, distance: 0, [Payload(ASAMAllowlist(appIdentifiers: ["com.b.quiz"]))]),
        ])
        #expect(policy[ASAMAllowlist.self]?.value.appIdentifiers == [])
        #expect(policy.warnings.contains { $0.contains("no app may lock") })
    }

    @Test func twoSingleAppModeAppsAreAConflict() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(SingleAppMode(appIdentifier: "com.a.kiosk"))]),
            reaching(2, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.b.kiosk"))]),
        ])
        #expect(policy.hasConflict)
        #expect(policy[SingleAppMode.self] == nil)
        #expect(policy.singleAppModeConflict.count == 2)
    }

    @Test func theSameSingleAppModeAppTwiceIsNoConflict() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 0, [Payload(SingleAppMode(appIdentifier: "com.a.kiosk"))]),
            reaching(2, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.a.kiosk"))]),
        ])
        #expect(!policy.hasConflict)
        #expect(policy[SingleAppMode.self]?.value.appIdentifier == "com.a.kiosk")
    }

    @Test func geofenceAreasAreUnited() {
        let a = Geofence.Area(name: "HQ", latitude: 51.5, longitude: -0.12, radiusMeters: 200)
        let b = Geofence.Area(name: "Depot", latitude: 51.4, longitude: -0.2, radiusMeters: 500)
        let policy = EffectivePolicy.compute(from: [reaching(1, distance: 0, [Payload(Geofence(areas: [a]))]),
                                                    reaching(2, distance: 3, [Payload(Geofence(areas: [b]))])])
        #expect(policy[Geofence.self]?.value.areas.map(\.name) == ["HQ", "Depot"])
    }

    @Test func loggingAndBrandingComeFromTheNearestGroup() {
        let policy = EffectivePolicy.compute(from: [
            reaching(1, distance: 2, [Payload(Logging(level: .error)), Payload(Branding(primaryColor: RGBAColor(red: 1, green: 2, blue: 3)))]),
            reaching(2, distance: 0, [Payload(Logging(level: .debug))]),
        ])
        #expect(policy[Logging.self]?.value.level == .debug)
        #expect(policy[Logging.self]?.sources.first?.profileID == 2)
        #expect(policy[Branding.self]?.value.primaryColor.red == 1)
    }

    @Test func twoProfilesAtTheSameDistanceWarnAndTheOlderWins() {
        let policy = EffectivePolicy.compute(from: [
            reaching(7, distance: 0, [Payload(Logging(level: .debug))]),
            reaching(3, distance: 0, [Payload(Logging(level: .warning))]),
        ])
        #expect(policy[Logging.self]?.value.level == .warning)
        #expect(policy.warnings.contains { $0.contains("Profile 3 wins") })
        #expect(policy.warnings.contains { $0.contains("both set Logging") })
    }

    @Test func threeTiedProfilesAreListedInOneSentence() {
        let policy = EffectivePolicy.compute(from: [1, 2, 3].map { reaching($0, distance: 0, [Payload(Logging())]) })
        #expect(policy.warnings == ["Profile 1, Profile 2 and Profile 3 all set Logging through Group 0; Profile 1 wins (the oldest profile)."])
    }

    @Test func twentyProfilesOverFiveLevelsCompute() {
        let kinds: [Payload] = [Payload(DataLossPrevention()), Payload(Logging()), Payload(ASAMAllowlist(appIdentifiers: ["com.a.b"]))]
        let profiles = (0..<20).map { reaching(Int64($0), distance: $0 % 5, [kinds[$0 % 3]]) }
        let policy = EffectivePolicy.compute(from: profiles)
        #expect(policy[DataLossPrevention.self]?.sources.count == 7)
        #expect(policy[ASAMAllowlist.self]?.value.appIdentifiers == ["com.a.b"])
    }
}
