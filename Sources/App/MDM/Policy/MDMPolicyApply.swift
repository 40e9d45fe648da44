import Domain
import Foundation
import Storage

/// The comparison `MDMPolicySync` makes inside its transaction: per device and console
/// profile, what the device will hold once the command under way is done, against what it
/// should carry; the difference queued, a waiting install given the newer content.
struct MDMPolicyApply {
    let connection: Connection
    let at: Date
    private(set) var summary = MDMPolicySync.Summary()
    /// Devices with a command newly queued: woken once the transaction commits.
    private(set) var woken: [RecordID<DeviceRecord>] = []
    private var writes = MDMPolicyWrites()

    init(connection: Connection, at time: Date) {
        self.connection = connection
        at = time
    }

    /// A device's row with the status of the command its row names.
    private struct Held: Decodable {
        let row: MDMDeviceProfileRecord
        let commandStatus: CommandStatus?

        private enum CodingKeys: String, CodingKey { case commandStatus }

        init(from decoder: any Decoder) throws {
            row = try MDMDeviceProfileRecord(from: decoder)
            commandStatus = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(CommandStatus.self, forKey: .commandStatus)
        }
    }

    mutating func bring(_ devices: [RecordID<DeviceRecord>: [MDMPolicyPlan.Planned]]) throws {
        let ids = devices.keys.sorted { $0.rawValue < $1.rawValue }
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let chunk = Array(ids[start..<min(start + 1_000, ids.count)])
            var held: [RecordID<DeviceRecord>: [String: Held]] = [:]
            for found in try connection.fetch(Held.self, """
                SELECT p.*, c.status AS commandStatus FROM mdm_device_profiles p LEFT JOIN device_commands c ON c.uuid = p.commandUUID
                WHERE p.deviceID IN (\(list: chunk))
                """) {
                held[found.row.deviceID, default: [:]][found.row.identifier] = found
            }
            let listing = try devicesAskedForTheirList(chunk)
            for deviceID in chunk {
                summary.devices += 1
                var queued = false, profileQueued = false
                for planned in Self.withGoneApps(devices[deviceID] ?? [], held: held[deviceID] ?? [:]) {
                    let now = try bring(deviceID, planned, held: held[deviceID]?[planned.identifier])
                    queued = queued || now
                    profileQueued = profileQueued || (now && DevicePolicyProfiles.identifiers.contains(planned.identifier))
                }
                // The device's list is asked for after its installs, to compare while the change is fresh.
                if profileQueued, !listing.contains(deviceID) {
                    _ = try writes.queue(DeviceCommand(requestType: .profileList), for: deviceID, at: at)
                }
                if queued { woken.append(deviceID) }
            }
            try writes.write(connection)
        }
    }

    /// Devices of the chunk whose ProfileList already waits.
    private func devicesAskedForTheirList(_ chunk: [RecordID<DeviceRecord>]) throws -> Set<RecordID<DeviceRecord>> {
        struct Listing: Decodable { let deviceID: RecordID<DeviceRecord> }
        return Set(try connection.fetch(Listing.self, """
            SELECT DISTINCT deviceID FROM device_commands WHERE deviceID IN (\(list: chunk)) AND \(CommandQueue.waitingCondition)
            AND requestType = 'ProfileList'
            """).map(\.deviceID))
    }

    /// The plan, and the apps the plan no longer names: an app's configuration the device was
    /// sent is removed (unless a conflict keeps the device as it is); an app the console
    /// installed stays on the device, and its install is no longer pursued.
    private static func withGoneApps(_ planned: [MDMPolicyPlan.Planned], held: [String: Held]) -> [MDMPolicyPlan.Planned] {
        let named = Set(planned.map(\.identifier))
        let gone = held.keys.sorted().filter { !named.contains($0) }
        let installs = gone.filter { DeviceAppInstalls.app(of: $0) != nil }
            .map { MDMPolicyPlan.Planned(identifier: $0, digest: nil, keep: true, reason: nil, displayName: nil) }
        let inConflict = planned.contains { $0.keep && DevicePolicyProfiles.identifiers.contains($0.identifier) }
        guard !inConflict else { return planned + installs }
        return planned + installs + gone.filter { DeviceAppConfigurations.app(of: $0) != nil }
            .map { MDMPolicyPlan.Planned(identifier: $0, digest: nil, keep: false, reason: nil, displayName: nil) }
    }

    /// Brings one profile of one device in line; answers whether a command was newly queued.
    private mutating func bring(_ deviceID: RecordID<DeviceRecord>, _ planned: MDMPolicyPlan.Planned, held: Held?) throws -> Bool {
        var row = held?.row ?? MDMDeviceProfileRecord(deviceID: deviceID, identifier: planned.identifier)
        let before = row
        // A command that finished without its report reaching this row (expired, cancelled by a
        // person) carries nothing any more.
        let status = held?.commandStatus
        if row.commandUUID == nil || status.map(CommandStatus.waiting.contains) != true {
            row.sendingDigest = nil
            row.commandUUID = nil
        }
        row.heldBack = planned.reason
        if planned.keep, DeviceAppInstalls.app(of: row.identifier) != nil { try stopPursuing(&row, commandStatus: status) }
        let queued = planned.keep ? false : try bring(&row, to: planned, commandStatus: status)
        if row != before { writes.save(row) }
        return queued
    }

    /// An app install the policy no longer wants (or cannot make): one not yet sent, or put off
    /// by the device (it would be sent again), is taken back, and an earlier refusal is history.
    /// The app, if the device has it, stays.
    private func stopPursuing(_ row: inout MDMDeviceProfileRecord, commandStatus: CommandStatus?) throws {
        if commandStatus == .queued || commandStatus == .notNow, let uuid = row.commandUUID, try connection.execute("""
            UPDATE device_commands SET status = 'cancelled', completedAt = \(at), resultSummary = 'No longer needed: the policy no longer needs the app.'
            WHERE uuid = \(uuid) AND status IN ('queued', 'notNow')
            """) == 1 {
            row.sendingDigest = nil
            row.commandUUID = nil
        }
        (row.failures, row.failedDigest, row.retryAfter, row.lastError) = (0, nil, nil, nil)
    }

    private mutating func bring(_ row: inout MDMDeviceProfileRecord, to planned: MDMPolicyPlan.Planned, commandStatus: CommandStatus?) throws -> Bool {
        let removal = MDMDeviceProfileRecord.removal
        // A pause that is over is forgotten (`failures` stays, so the next refusal waits longer).
        if let retry = row.retryAfter, retry <= at { row.retryAfter = nil }
        let underWay = row.commandUUID != nil
        let heading = underWay ? row.sendingDigest.flatMap { $0 == removal ? nil : $0 } : row.installedDigest
        let wanted = planned.digest
        guard wanted != heading else {
            // In line with nothing on its way: an earlier refusal is history.
            if !underWay { (row.failures, row.failedDigest, row.retryAfter, row.lastError) = (0, nil, nil, nil) }
            return false
        }
        // A refused install is tried again only after its pause.
        if row.failedDigest == (wanted ?? removal), let retry = row.retryAfter, retry > at { return false }
        if underWay, commandStatus == .queued, let uuid = row.commandUUID, try replace(uuid, with: wanted, planned: planned, installed: row.installedDigest) {
            summary.replaced += 1
            let backToInstalled = wanted == row.installedDigest
            row.sendingDigest = backToInstalled ? nil : wanted ?? removal
            row.commandUUID = backToInstalled ? nil : uuid
            return false
        }
        let uuid = try writes.queue(Self.command(wanted, planned), for: row.deviceID, at: at)
        if DeviceAppConfigurations.app(of: row.identifier) != nil { summary.configurations += 1 }
        else if DeviceAppInstalls.app(of: row.identifier) != nil { summary.appInstalls += 1 }
        else if wanted == nil { summary.removals += 1 } else { summary.installs += 1 }
        row.sendingDigest = wanted ?? removal
        row.commandUUID = uuid
        return true
    }

    /// InstallProfile of `digest`, or RemoveProfile for nil; for an app's configuration, Settings
    /// carrying it (or, for nil, removing it).
    private static func command(_ digest: String?, _ planned: MDMPolicyPlan.Planned) -> DeviceCommand {
        var parameters = DeviceCommand.Parameters(profileName: planned.displayName ?? name(of: planned.identifier))
        parameters.profileIdentifier = planned.identifier
        parameters.profileDigest = digest
        if let app = DeviceAppConfigurations.app(of: planned.identifier) {
            parameters.apps = [app]
            return DeviceCommand(requestType: .settings, parameters)
        }
        if let app = DeviceAppInstalls.app(of: planned.identifier) {
            parameters.apps = [app]
            return DeviceCommand(requestType: .installApplication, parameters)
        }
        return DeviceCommand(requestType: digest == nil ? .removeProfile : .installProfile, parameters)
    }

    /// Gives a command not yet sent the newer content, or takes it back when the device already
    /// holds what is wanted. False when it was sent meanwhile (another console handed it out):
    /// then a new command follows it.
    private func replace(_ uuid: String, with wanted: String?, planned: MDMPolicyPlan.Planned, installed: String?) throws -> Bool {
        if wanted == installed {
            return try connection.execute("""
                UPDATE device_commands SET status = 'cancelled', completedAt = \(at), resultSummary = 'No longer needed: the policy changed back before it was sent.'
                WHERE uuid = \(uuid) AND status = 'queued'
                """) == 1
        }
        let command = Self.command(wanted, planned)
        return try connection.execute("""
            UPDATE device_commands SET requestType = \(command.requestType.rawValue), parameters = \(column: command.parameters), queuedAt = \(at)
            WHERE uuid = \(uuid) AND status = 'queued'
            """) == 1
    }

    /// How the history names a profile when there is no content to name it by (a removal).
    static func name(of identifier: String) -> String {
        if let app = DeviceAppConfigurations.app(of: identifier) { return "Configuration of \(app)" }
        if let app = DeviceAppInstalls.app(of: identifier) { return "App \(app)" }
        return identifier == DevicePolicyProfiles.singleAppModeIdentifier ? "Single App Mode" : "Payload Console policy"
    }
}
