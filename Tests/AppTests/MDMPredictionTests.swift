@testable import App
import Domain
import Foundation
import Storage
import Testing

/// A real device's page puts what its policy predicts beside what the device reported, and
/// says where they disagree: a kiosk locked as predicted agrees; once its list lacks the lock
/// profile, the page names Single App Mode as the disagreement.
@Suite struct MDMPredictionTests {
    func listing(_ managed: MDMPolicySyncTests.Managed, lock: Bool) async throws {
        let held = try #require(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier))
        let profiles: [PropertyList] = lock ? [.dictionary([
            ("PayloadIdentifier", .string(DevicePolicyProfiles.singleAppModeIdentifier)),
            ("PayloadUUID", .string(MDMPolicyPlan.stableUUID(held.installedDigest ?? ""))), ("IsManaged", .boolean(true)), ("PayloadContent", .array([])),
        ])] : []
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceCommandRecord(deviceID: managed.device.device, command: DeviceCommand(requestType: .profileList),
                                                          queuedAt: managed.console.clock.now, queuedBy: "Inventory"))
        }
        _ = try await managed.answerNext("Acknowledged", [("ProfileList", .array(profiles))])
    }

    @Test func thePredictionAndTheDevicesReportAgreeThenDisagreeWhereTheLockIsMissing() async throws {
        let managed = try await MDMReleaseTests().lockedKiosk()
        try await listing(managed, lock: true)
        let agreeing = try await managed.page("/devices/\(managed.device.device)", role: .helpdesk)
        #expect(agreeing.contains("Predicted beside reported") && agreeing.contains("The device agrees with the prediction."))
        #expect(agreeing.contains("Locked to com.example.lobby") && agreeing.contains("Holds the Single App Mode profile the console sent"))
        #expect(agreeing.contains("App com.example.lobby") && agreeing.contains("Installed (the policy requires it)"))

        try await listing(managed, lock: false)
        let differing = try await managed.page()
        #expect(differing.contains("The device disagrees with the prediction on: Single App Mode."))
        #expect(differing.contains("No Single App Mode profile"))
    }
}
