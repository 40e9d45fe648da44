import Domain
import Foundation
import Testing

/// What policy makes a device do about its lock, one rule for the device page and the impact
/// preview: Single App Mode holds only a supervised device with the app, a conflict changes
/// nothing, and the ASAM allowlist is named when no payload locks the device.
@Suite struct PolicyLockTests {
    let tests = EffectivePolicyTests()
    let lock = Payload(SingleAppMode(appIdentifier: "com.example.checkin"))

    @Test func singleAppModeHoldsOnlyASupervisedDeviceWithTheApp() {
        let policy = EffectivePolicy.compute(from: [tests.reaching(7, distance: 0, [lock])])
        let source = policy[SingleAppMode.self]?.sources.first
        #expect(PolicyLock.of(policy, isSupervised: true, installedApps: ["com.example.checkin"])
                == .singleAppMode(app: "com.example.checkin", source: source, blocked: nil))
        #expect(PolicyLock.of(policy, isSupervised: true, installedApps: ["com.example.checkin"]).lockedApp == "com.example.checkin")
        #expect(PolicyLock.of(policy, isSupervised: false, installedApps: ["com.example.checkin"])
                == .singleAppMode(app: "com.example.checkin", source: source, blocked: .notSupervised))
        #expect(PolicyLock.of(policy, isSupervised: true, installedApps: []).lockedApp == nil)
    }

    @Test func aConflictTheAllowlistAndNoGroupAreTheirOwnAnswers() {
        let conflict = EffectivePolicy.compute(from: [tests.reaching(1, distance: 0, [lock]),
                                                      tests.reaching(2, distance: 1, [Payload(SingleAppMode(appIdentifier: "com.example.b"))])])
        guard case .conflict(let apps, let sources) = PolicyLock.of(conflict, isSupervised: true, installedApps: ["com.example.checkin"]) else {
            Issue.record("a conflict")
            return
        }
        #expect(apps == ["com.example.b", "com.example.checkin"] && sources.count == 2)
        let asam = EffectivePolicy.compute(from: [tests.reaching(3, distance: 0, [Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam"]))])])
        #expect(PolicyLock.of(asam, isSupervised: true, installedApps: []) == .unlocked(asam: asam[ASAMAllowlist.self]?.map(\.appIdentifiers)))
        #expect(PolicyLock.of(EffectivePolicy.compute(from: []), isSupervised: true, installedApps: []) == .unlocked(asam: nil))
        #expect(PolicyLock.of(nil, isSupervised: true, installedApps: []) == .noPolicy)
    }
}

/// How the device list's search box reads what was typed.
@Suite struct DeviceSearchTests {
    @Test func threeCharactersOrMoreMatchInsideAsOneQuotedStringShorterTheStart() {
        #expect(DeviceSearch("  ") == .everything)
        #expect(DeviceSearch("Va") == .start("va"), "folded")
        #expect(DeviceSearch(" Kiosk ") == .inside("kiosk"))
        #expect(DeviceSearch.trigramExpression("kiosk") == "\"kiosk\"")
        #expect(DeviceSearch.trigramExpression("kiosk\" or \"x") == "\"kiosk\"\" or \"\"x\"", "a quote is text, never FTS5 syntax")
    }
}

/// When a device should next check in, and so answer what is queued for it.
@Suite struct CheckInExpectationTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aDeviceIsDueWithinItsIntervalOverdueAfterItAndASimulatedOneWhenItsSimulatorOpens() {
        let interval: TimeInterval = 15 * 60
        let recent = now.addingTimeInterval(-120)
        #expect(CheckInExpectation.of(lastCheckIn: recent, answeredBySimulator: false, interval: interval, now: now)
                == .due(last: recent, by: recent.addingTimeInterval(interval)))
        let old = now.addingTimeInterval(-3600)
        #expect(CheckInExpectation.of(lastCheckIn: old, answeredBySimulator: false, interval: interval, now: now)
                == .overdue(last: old, since: old.addingTimeInterval(interval)))
        #expect(CheckInExpectation.of(lastCheckIn: nil, answeredBySimulator: false, interval: interval, now: now) == .never)
        #expect(CheckInExpectation.of(lastCheckIn: old, answeredBySimulator: true, interval: interval, now: now) == .whenSimulatorOpens)
    }
}
