import Domain
import Foundation
import Storage

/// One turn on the command endpoint: the device reports on the command it was sent (or says
/// Idle), the report is recorded through the command queue, and the next waiting command is
/// handed out as Apple's plist — one at a time, skipping those the device put off in its
/// current NotNow run.
struct MDMCommandExchange: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    let quietDevices: MDMQuietDevices
    private let lastSeenWrites: MDMLastSeenWrites
    /// For a Settings command a person queued: the apps' configurations come from the policy.
    let contents: ProfileContentCache?

    init(database: Database, now: @escaping @Sendable () -> Date, contents: ProfileContentCache? = nil) {
        self.database = database
        self.now = now
        self.contents = contents
        quietDevices = MDMQuietDevices(database: database)
        lastSeenWrites = MDMLastSeenWrites(database: database, quietDevices: quietDevices)
    }

    enum Refusal: Error, Equatable {
        /// The device checked out (or never finished enrolling): it gets nothing.
        case notEnrolled
        /// A report on a command this device was not sent, or one already finished.
        case notItsCommand
    }

    /// How many commands that cannot be written for this device are closed as errors in one
    /// turn before the device is told to come back: bounded work per request.
    static let closedPerTurn = 20

    /// Records `message` from the device and answers the next command to send, or nil for an
    /// empty 200.
    func exchange(_ message: CommandReportMessage, rawBody: String, from deviceID: RecordID<DeviceRecord>) async throws -> PropertyList? {
        let time = now()
        if message.report == .idle, try await idleNeedsNothing(deviceID, at: time) { return nil }
        return try await database.write { connection in
            // What a turn needs of the device's MDM row; the inventory (a JSON document) is
            // read and written only when an answer changes it.
            guard var turn = try Turn.read(deviceID, connection: connection), turn.state == .enrolled else { throw Refusal.notEnrolled }
            let queue = CommandQueue(database: database, now: now)
            switch message.report {
            case .idle:
                turn.notNowRun = []
            case .status(let status, let uuid):
                let recorded: DeviceCommandRecord
                do {
                    recorded = try queue.record(Self.report(status, message, raw: rawBody), for: uuid, from: deviceID, at: time, connection: connection)
                } catch is CommandQueue.Refusal {
                    throw Refusal.notItsCommand
                }
                turn.notNowRun = status == .notNow ? turn.notNowRun + [uuid] : []
                try MDMPolicyReports.record(recorded, at: time, connection: connection)
                if status == .acknowledged, MDMInventoryRefresh.commands.contains(recorded.requestType) {
                    try apply(recorded.requestType, answer: message.body, deviceID: deviceID, at: time, connection: connection)
                }
            }
            let next = try nextCommand(for: deviceID, turn: turn, queue: queue, at: time, connection: connection)
            _ = try connection.execute(try "UPDATE mdm_devices SET lastSeenAt = \(time), notNowRun = \(column: turn.notNowRun) WHERE id = \(turn.id)")
            let device = try connection.fetch(LastCheckIn.self, "SELECT lastCheckInAt FROM devices WHERE id = \(deviceID)").first
            if CheckInRecording.isDue(lastRecorded: device?.lastCheckInAt, at: time) {
                try connection.recordCheckIn(of: deviceID, at: time)
            }
            return next
        }
    }

    /// What a turn needs of the device's MDM row: five columns, not the whole row.
    private struct Turn: Codable {
        let id: Int64
        let state: MDMDeviceRecord.State
        var notNowRun: [String]
        let lastSeenAt: Date?
        let unlockToken: Data?

        static func read(_ deviceID: RecordID<DeviceRecord>, connection: Connection) throws -> Turn? {
            try connection.fetch(Turn.self, "SELECT id, state, notNowRun, lastSeenAt, unlockToken FROM mdm_devices WHERE deviceID = \(deviceID)").first
        }
    }

    private struct LastCheckIn: Codable {
        let lastCheckInAt: Date?
    }

    /// Most turns are a woken or polling device saying Idle with nothing waiting: no write
    /// answers them (a read, or not even that for a device known quiet), as long as no NotNow
    /// run is to end; the device's last-seen time, kept at a minute's grain as check-ins are,
    /// is a bookkeeping write of two columns when due (with other devices' due meanwhile,
    /// `MDMLastSeenWrites`) — not the whole record, whose inventory is a JSON document to
    /// decode and write back.
    private func idleNeedsNothing(_ deviceID: RecordID<DeviceRecord>, at time: Date) async throws -> Bool {
        var known = quietDevices.quiet(deviceID)
        if known == nil { known = try await quietDevices.reading(deviceID) { try await readQuiet(deviceID) } }
        guard let quiet = known else { return false }
        if CheckInRecording.isDue(lastRecorded: quiet.lastSeenAt, at: time) {
            try await lastSeenWrites.record(deviceID, quiet, at: time)
        }
        return true
    }

    /// The device as an Idle needs it, if nothing is to be done.
    private func readQuiet(_ deviceID: RecordID<DeviceRecord>) async throws -> MDMQuietDevices.Quiet? {
        try await database.read { connection in
            guard let turn = try Turn.read(deviceID, connection: connection), turn.state == .enrolled else { throw Refusal.notEnrolled }
            guard turn.notNowRun.isEmpty, try connection.count(CommandQueue.waiting(for: deviceID)) == 0 else { return nil }
            return MDMQuietDevices.Quiet(row: turn.id, lastSeenAt: turn.lastSeenAt)
        }
    }

    /// The report in the queue's terms, its answer in words.
    static func report(_ status: CommandStatus, _ message: CommandReportMessage, raw: String) -> CommandReport {
        let words: String = switch status {
        case .acknowledged: "Done."
        case .error: message.errorChain.isEmpty ? "The device reported an error without saying which." : message.errorSummary
        case .formatError: "The device could not read the command (CommandFormatError)."
        case .notNow: "The device cannot run it now (it may be locked or busy); it is sent again at a later check-in."
        default: status.displayName
        }
        var report = CommandReport(status: status, summary: String(words.prefix(CommandReplyBody.maximumSummary)), raw: raw)
        if status == .acknowledged {
            switch MDMFeedback.read(message.body) {
            case .success(let feedback): report.feedback = feedback
            case .failure(let refusal): report.summary = String("Done; its feedback was not kept: \(refusal.reason)".prefix(CommandReplyBody.maximumSummary))
            }
        }
        return report
    }

    /// The next command this device can be sent; one the console cannot write for it (a
    /// passcode clear without an unlock token) is closed as an error, saying why.
    private func nextCommand(for deviceID: RecordID<DeviceRecord>, turn: Turn, queue: CommandQueue,
                             at time: Date, connection: Connection) throws -> PropertyList? {
        for _ in 0..<Self.closedPerTurn {
            guard let handed = try queue.handOut(to: deviceID, limit: 1, skipping: Set(turn.notNowRun), exclusive: true, at: time, connection: connection).first else {
                return nil
            }
            let command = handed.command
            do {
                return try MDMCommandPlist.envelope(uuid: command.uuid, command: command.command,
                                                    materials: try materials(for: command, unlockToken: turn.unlockToken, deviceID: deviceID, connection: connection))
            } catch let refusal as MDMCommandPlist.Refusal {
                _ = try queue.record(CommandReport(status: .error, summary: "Not sent: \(refusal.description)"), for: command.uuid, from: deviceID,
                                     at: time, connection: connection)
            }
        }
        return nil
    }

    /// What only the console knows when it sends the command.
    private func materials(for command: DeviceCommandRecord, unlockToken: Data?, deviceID: RecordID<DeviceRecord>,
                           connection: Connection) throws -> MDMCommandPlist.Materials {
        var materials = MDMCommandPlist.Materials()
        materials.unlockToken = unlockToken.map { Array($0) }
        switch command.requestType {
        case .installProfile:
            if let digest = command.parameters.profileDigest {
                materials.profile = try connection.fetchOne(MDMProfileDocumentRecord.query().filter("digest", .equal, digest)).map { Array($0.signed) }
            }
        case .removeProfile:
            materials.profileIdentifier = command.parameters.profileIdentifier
            if materials.profileIdentifier == MDMRelease.enrollmentProfile {
                // Named when sent, from the device's own latest list (asked for first).
                let listed = try connection.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, deviceID))?.inventory?.profiles ?? []
                materials.profileIdentifier = listed.first { $0.identifier.hasPrefix(EnrollmentProfile.identifierPrefix) }?.identifier
            }
        case .settings:
            materials.appConfigurations = try appConfigurations(for: command, deviceID: deviceID, connection: connection)
        case .installApplication:
            try addInstall(of: command, to: &materials, deviceID: deviceID, connection: connection)
        case .managedApplicationFeedback, .managedApplicationConfiguration:
            let installed = try connection.require(DeviceRecord.self, id: deviceID).installedApps
            materials.managedApps = try connection.fetch(AppRecord.query().filter("bundleID", in: installed).filter("isManaged", .equal, true))
                .map(\.bundleID).sorted()
        default:
            break
        }
        return materials
    }

    /// The policy's Settings command carries one app's configuration as the sync stored it (or
    /// none, to remove it); one a person queued sends every configuration the policy gives the
    /// device's installed apps now.
    private func appConfigurations(for command: DeviceCommandRecord, deviceID: RecordID<DeviceRecord>,
                                   connection: Connection) throws -> [(bundleID: String, configuration: PropertyList?)] {
        if let app = command.parameters.profileIdentifier.flatMap(DeviceAppConfigurations.app(of:)) {
            guard let digest = command.parameters.profileDigest else { return [(app, nil)] }
            guard let stored = try connection.fetchOne(MDMProfileDocumentRecord.query().filter("digest", .equal, digest)) else { return [] }
            return [(app, try PropertyListReader.read(stored.signed))]
        }
        guard let contents else { return [] }
        let device = try connection.require(DeviceRecord.self, id: deviceID)
        let policy = try PolicyLoader(connection: connection, cache: contents).effectivePolicy(group: device.groupID)
        return DeviceAppConfigurations.configurations(for: policy, installedApps: Set(device.installedApps)).map { ($0.app, $0.configuration) }
    }

    /// The install's keys as the sync stored them, and the configuration the policy gives the
    /// app now, so the app starts configured.
    private func addInstall(of command: DeviceCommandRecord, to materials: inout MDMCommandPlist.Materials, deviceID: RecordID<DeviceRecord>,
                            connection: Connection) throws {
        guard let digest = command.parameters.profileDigest,
              let stored = try connection.fetchOne(MDMProfileDocumentRecord.query().filter("digest", .equal, digest)),
              case .dictionary(let keys) = try PropertyListReader.read(stored.signed) else { return }
        materials.application = keys
        guard let contents, let app = command.parameters.apps.first else { return }
        let device = try connection.require(DeviceRecord.self, id: deviceID)
        let policy = try PolicyLoader(connection: connection, cache: contents).effectivePolicy(group: device.groupID)
        materials.applicationConfiguration = DeviceAppConfigurations.configurations(for: policy, installedApps: [app]).first?.configuration
    }

    /// An acknowledged inventory answer updates what the page shows, and the console's record
    /// where the device is the authority (its name, iOS, supervision, installed apps).
    private func apply(_ type: DeviceCommand.RequestType, answer: PropertyList, deviceID: RecordID<DeviceRecord>, at time: Date,
                       connection: Connection) throws {
        guard var enrolled = try connection.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, deviceID)) else { return }
        var inventory = enrolled.inventory ?? MDMInventory()
        guard inventory.apply(type, answer: answer, at: time) else { return }
        enrolled.inventory = inventory
        try connection.update(enrolled)
        var device = try connection.require(DeviceRecord.self, id: deviceID)
        let before = device
        if type == .deviceInformation {
            // A name a person could not type into the form (control characters) is not taken.
            if let name = inventory.deviceName?.trimmingWhitespace(), !name.isEmpty, PlainText.problem(name) == nil {
                device.name = String(name.prefix(80))
            }
            if let version = inventory.osVersion { device.osVersion = version }
            if let supervised = inventory.isSupervised { device.isSupervised = supervised }
        }
        if type == .installedApplicationList, let apps = inventory.apps {
            // An app still downloading, or whose download failed, is not there to lock into or configure.
            device.installedApps = apps.filter(\.isInstalled).map(\.identifier)
            try MDMAppInstalls.reconcile(apps, deviceID: deviceID, at: time, connection: connection)
        }
        if type == .profileList, let profiles = inventory.profiles { try MDMPolicyDrift.reconcile(profiles, deviceID: deviceID, connection: connection) }
        if device.name != before.name || device.osVersion != before.osVersion || device.isSupervised != before.isSupervised
            || device.installedApps != before.installedApps {
            try connection.update(device)
        }
    }
}
