import Domain
import Foundation
import Testing

/// The impact preview judges the SDK's rules — compliance, compromised protection, geofence,
/// offline access — against what each device last reported, with the simulator's own
/// judgement, and says "not known" where a device never reported what a rule compares.
@Suite struct SDKImpactTests {
    let oldCheckIn = ComplianceRule(subject: .app("com.example.checkin"), comparison: .lessThan, version: "2.4.1", action: .block)
    let oldIOS = ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17", action: .wipe)

    func reaching(_ payloads: [Payload]) -> [ReachingProfile] {
        [ReachingProfile(source: PolicySource(profileID: 1, profileName: "Kiosk", version: 2, groupName: "Lobby kiosks", groupDistance: 0),
                         content: ProfileContent(name: "Kiosk", payloads: payloads))]
    }

    func kiosk(_ name: String, version: String?, os: String? = "18.1", jailbroken: Bool? = nil,
               location: DeviceConditions.Location? = nil, network: DeviceConditions.Network? = nil) -> PolicyImpact.Device {
        PolicyImpact.Device(id: 1, name: name, isSupervised: true, installedApps: ["com.example.checkin"], conditions: DeviceConditions(
            osVersion: os, installedApps: ["com.example.checkin"], sdkApps: ["com.example.checkin"],
            appVersions: version.map { ["com.example.checkin": $0] } ?? [:], isJailbroken: jailbroken, location: location, network: network))
    }

    func impact(_ devices: [PolicyImpact.Device], before: [Payload] = [], after: [Payload]) -> PolicyImpact {
        PolicyImpact.compute([PolicyImpact.GroupInput(name: "Lobby kiosks", devices: devices, before: reaching(before), after: reaching(after))])
    }

    @Test func aComplianceRuleBlocksTheDevicesWhoseReportedVersionBreaksIt() {
        let result = impact([kiosk("Lobby kiosk 01", version: "2.4.0"), kiosk("Lobby kiosk 02", version: "2.4.1"), kiosk("Lobby kiosk 03", version: nil)],
                            after: [Payload(Compliance(rules: [oldCheckIn]))])
        let blocked = result.sdkStarting.filter { $0.finding == .ruleBroken(oldCheckIn) }
        #expect(blocked.map(\.device) == ["Lobby kiosk 01"], "2.4.1 is not earlier than 2.4.1")
        #expect(blocked.first?.finding.effect == "block")
        #expect(blocked.first?.finding.sentence { $0 == "com.example.checkin" ? "Lobby Check-In" : $0 }
            == "SDK apps blocked: Lobby Check-In earlier than 2.4.1 (compliance rule, by the last reported version)")
        let unknown = result.sdkStarting.filter { $0.finding == .ruleNotKnown(oldCheckIn) }
        #expect(unknown.map(\.device) == ["Lobby kiosk 03"], "a version never reported is not known, not a guess")
        #expect(unknown.first?.finding.effect == "not-known")
    }

    @Test func removingTheRuleEndsTheBlockAndAnUnchangedRuleIsNotListed() {
        let devices = [kiosk("Lobby kiosk 01", version: "2.4.0")]
        let removed = impact(devices, before: [Payload(Compliance(rules: [oldCheckIn]))], after: [Payload(Logging(level: .error))])
        #expect(removed.sdkEnding.map(\.finding) == [.ruleBroken(oldCheckIn)])
        #expect(removed.sdkStarting.isEmpty)
        let unchanged = impact(devices, before: [Payload(Compliance(rules: [oldCheckIn]))],
                               after: [Payload(Compliance(rules: [oldCheckIn])), Payload(Logging(level: .error))])
        #expect(unchanged.sdkChanges.isEmpty, "a block already in force is not news")
    }

    @Test func anOSRuleWipesAndAnUnreportedOSIsNotKnown() {
        let result = impact([kiosk("Old", version: "2.4.1", os: "16.7"), kiosk("Unknown", version: "2.4.1", os: nil)],
                            after: [Payload(Compliance(rules: [oldIOS]))])
        #expect(result.sdkStarting.map(\.finding) == [.ruleBroken(oldIOS), .ruleNotKnown(oldIOS)])
        #expect(result.sdkStarting[0].finding.effect == "wipe")
    }

    @Test func compromisedProtectionActsOnlyWhereAJailbreakWasReported() {
        let result = impact([kiosk("Jailbroken", version: "2.4.1", jailbroken: true), kiosk("Clean", version: "2.4.1", jailbroken: false),
                             kiosk("Unreported", version: "2.4.1")],
                            after: [Payload(CompromisedProtection(action: .wipe))])
        #expect(result.sdkStarting.map(\.device) == ["Jailbroken", "Unreported"])
        #expect(result.sdkStarting.map(\.finding) == [.jailbroken(.wipe), .jailbreakNotKnown])
    }

    @Test func aGeofenceBlocksOutsideStopsWithoutLocationServicesAndIsNotKnownWithoutALocation() {
        let office = Geofence.Area(name: "Head office", latitude: 51.5072, longitude: -0.1276, radiusMeters: 400)
        let result = impact([
            kiosk("Inside", version: "2.4.1", location: .at(office.centre)),
            kiosk("Outside", version: "2.4.1", location: .at(GeoPoint(latitude: 53.48, longitude: -2.24))),
            kiosk("Airplane", version: "2.4.1", location: .servicesOff(reason: "airplane mode")),
            kiosk("Silent", version: "2.4.1"),
        ], after: [Payload(Geofence(areas: [office]))])
        #expect(result.sdkStarting.map(\.device) == ["Outside", "Airplane", "Silent"])
        #expect(result.sdkStarting.map(\.finding) == [.outsideGeofence(nearestArea: "Head office"), .geofenceStopped, .locationNotKnown])
        #expect(result.sdkStarting.map(\.finding.effect) == ["block", "not-enforced", "not-known"])
    }

    @Test func offlineAccessOffBlocksAnOfflineDevice() {
        let result = impact([kiosk("Offline", version: "2.4.1", network: .offline(minutes: 30)), kiosk("Online", version: "2.4.1", network: .online),
                             kiosk("Silent", version: "2.4.1")],
                            after: [Payload(Authentication(type: .passcode, offlineAccessEnabled: false))])
        #expect(result.sdkStarting.map(\.device) == ["Offline", "Silent"])
        #expect(result.sdkStarting.map(\.finding) == [.offlineBlocked, .networkNotKnown])
    }

    @Test func aDeviceWithoutAnSDKAppHasNobodyToEnforce() {
        let plain = PolicyImpact.Device(id: 2, name: "Plain", isSupervised: true, installedApps: ["com.example.checkin"], conditions: DeviceConditions(
            osVersion: "16", installedApps: ["com.example.checkin"], sdkApps: [], appVersions: ["com.example.checkin": "1.0"],
            isJailbroken: true, location: nil, network: nil))
        #expect(impact([plain], after: [Payload(Compliance(rules: [oldCheckIn, oldIOS]))]).sdkChanges.isEmpty)
    }

    /// The preview's judgement is the simulator's: a simulated device's own conditions give
    /// the same broken rules as its SDK enforces.
    @Test func theSimulatorAndThePreviewJudgeAlike() {
        var device = SimulatedDevice(isSupervised: true, apps: [SimulatedApp(bundleID: "com.example.checkin", name: "Lobby Check-In", isSDKBuilt: true)],
                                     clock: Date(timeIntervalSince1970: 1_800_000_000),
                                     policy: DevicePolicy(Compliance(rules: [oldCheckIn]), CompromisedProtection(action: .block)))
        device.osVersion = "18.1"
        device.appVersions = ["com.example.checkin": "2.4.0"]
        device.compromisedSince = device.clock
        #expect(device.enforcement.brokenRules == [oldCheckIn] && device.enforcement.compromisedAction == .block)
        #expect(device.policy.sdkFindings(on: device.conditions) == [.ruleBroken(oldCheckIn), .jailbroken(.block)])
        #expect(device.complianceState == .blocked)
    }
}
