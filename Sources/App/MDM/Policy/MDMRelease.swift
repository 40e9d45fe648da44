import Domain
import Foundation
import Storage

/// An admin lets a real device leave management. Its policy stops being followed (nothing is
/// installed again behind the admin's back) and the console's waiting policy commands are
/// taken back; then, in this order, the device is asked:
/// 1. for its profile list, so the last step can name the device's MDM profile;
/// 2. when the admin chose to remove the console's things first: to remove the Single App
///    Mode lock (first, because removing the app a device is locked into would leave it
///    unusable), the apps the console installed that the catalog says go with management
///    (their data with them), and the policy profile;
/// 3. to remove the MDM profile itself, after which the device checks out.
/// Nothing is deleted from the console's records: the device, its history, logs and notes stay.
struct MDMRelease: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    var wakeups: CommandWakeups?

    /// The MDM profile's removal names it when sent (`MDMCommandExchange`), from the device's list.
    static let enrollmentProfile = EnrollmentProfile.identifierPrefix + "*"

    enum Refusal: Error, Equatable {
        case notEnrolled
        case alreadyLeaving
    }

    /// Queues the steps; answers them, in order.
    @discardableResult
    func release(_ deviceID: RecordID<DeviceRecord>, removingFirst: Bool, by user: User) async throws -> [DeviceCommand] {
        let time = now()
        let steps = try await database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            guard var enrolled = try connection.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, deviceID)),
                  enrolled.state == .enrolled else { throw Refusal.notEnrolled }
            guard enrolled.releaseRequestedAt == nil else { throw Refusal.alreadyLeaving }
            enrolled.releaseRequestedAt = time
            try connection.update(enrolled)
            try takeBackPolicyCommands(of: deviceID, at: time, connection: connection)
            let steps = try Self.steps(for: deviceID, removingFirst: removingFirst, connection: connection)
            for step in steps {
                _ = try connection.insert(DeviceCommandRecord(deviceID: deviceID, command: step, queuedAt: time, queuedBy: user.email))
            }
            try connection.audit(.deviceReleased, subject: device.name, by: Actor(user),
                                 after: steps.map(\.summary).joined(separator: "; "), at: time)
            return steps
        }
        wakeups?.queued(for: [deviceID])
        return steps
    }

    private func takeBackPolicyCommands(of deviceID: RecordID<DeviceRecord>, at time: Date, connection: Connection) throws {
        try connection.execute("""
            UPDATE device_commands SET status = 'cancelled', completedAt = \(time), resultSummary = 'No longer needed: the device is leaving management.'
            WHERE deviceID = \(deviceID) AND queuedBy = \(MDMPolicySync.queuedBy) AND status IN ('queued', 'notNow')
            """)
        try connection.execute("""
            UPDATE mdm_device_profiles SET sendingDigest = NULL, commandUUID = NULL
            WHERE deviceID = \(deviceID) AND commandUUID IN (SELECT uuid FROM device_commands WHERE deviceID = \(deviceID) AND status = 'cancelled')
            """)
    }

    static func steps(for deviceID: RecordID<DeviceRecord>, removingFirst: Bool, connection: Connection) throws -> [DeviceCommand] {
        var steps = [DeviceCommand(requestType: .profileList)]
        if removingFirst {
            let held = try connection.fetch(MDMDeviceProfileRecord.query().filter("deviceID", .equal, deviceID)).filter { $0.installedDigest != nil }
            let identifiers = Set(held.map(\.identifier))
            if identifiers.contains(DevicePolicyProfiles.singleAppModeIdentifier) {
                steps.append(removal(of: DevicePolicyProfiles.singleAppModeIdentifier))
            }
            let installed = held.compactMap { DeviceAppInstalls.app(of: $0.identifier) }
            let leaving = installed.isEmpty ? [] : try connection.fetch(AppRecord.query().filter("bundleID", in: installed))
                .filter(\.removeWithManagement).map(\.bundleID).sorted()
            steps += leaving.map { DeviceCommand(requestType: .removeApplication, DeviceCommand.Parameters(apps: [$0])) }
            if identifiers.contains(DevicePolicyProfiles.policyIdentifier) {
                steps.append(removal(of: DevicePolicyProfiles.policyIdentifier))
            }
        }
        var last = DeviceCommand.Parameters(profileName: "Device management (the MDM profile)")
        last.profileIdentifier = enrollmentProfile
        steps.append(DeviceCommand(requestType: .removeProfile, last))
        return steps
    }

    private static func removal(of identifier: String) -> DeviceCommand {
        var parameters = DeviceCommand.Parameters(profileName: MDMPolicyApply.name(of: identifier))
        parameters.profileIdentifier = identifier
        return DeviceCommand(requestType: .removeProfile, parameters)
    }
}
