import Domain
import Foundation
import Storage

/// Runs the simulator against stored device state. Every change is one transaction: the state,
/// its timeline events and command results are written together or not at all. The logs the
/// simulated SDK uploads then go to the log store as a device's upload does, after that
/// transaction (the log store is another file, with its own writer).
struct SimulatorService: Sendable {
    let database: Database
    let logStore: LogStore
    let checkIns: CheckInCache
    let contents: ProfileContentCache
    let now: @Sendable () -> Date

    /// Timeline events kept per device; older ones are pruned as new ones arrive.
    static let timelineLength = 500

    /// A device's state with what changed in this step, before it is written.
    struct Working {
        var record: SimulatorStateRecord
        /// The console's record of the device, read once per step: the sync compares it with
        /// the state, the save writes back what the device changed and names its uploads.
        var device: DeviceRecord
        var events: [SimulatorEvent] = []
        var logs: [SimulatedLog] = []
        /// SDK apps that sent their status beacon in this step.
        var beaconApps: [String] = []
        var last: SimulatorOutcome?

        @discardableResult
        mutating func run(_ action: SimulatorAction) -> SimulatorOutcome {
            let outcome = Simulator.perform(action, on: record.state)
            record.state = outcome.device
            events.append(outcome.event)
            logs += outcome.uploadedLogs
            if let app = outcome.beaconApp { beaconApps.append(app) }
            last = outcome
            return outcome
        }
    }

    // MARK: reading

    /// The stored state, created from the device record and the catalog on first use.
    func state(of deviceID: RecordID<DeviceRecord>) async throws -> SimulatorStateRecord {
        if let stored = try await database.read({ try $0.fetchOne(SimulatorStateRecord.query().filter("deviceID", .equal, deviceID)) }) {
            return stored
        }
        let versions = try await startingVersions(of: deviceID)
        return try await database.write { try loadOrCreate(deviceID, versions: versions, in: $0) }
    }

    /// For a device the simulator has not played yet, the version each of its apps starts at:
    /// what the device's own newest log lines said of it (the version the fleet runs), read
    /// before the transaction that creates the state (the log store is another database);
    /// nil when the state exists already, so a step pays only a look at one row.
    private func startingVersions(of deviceID: RecordID<DeviceRecord>) async throws -> [String: String]? {
        let installed = try await database.read { connection -> [String]? in
            guard try connection.scalar("SELECT count(*) FROM simulator_states WHERE deviceID = \(deviceID)", as: Int.self) == 0 else { return nil }
            return try connection.require(DeviceRecord.self, id: deviceID).installedApps
        }
        guard let installed else { return nil }
        return try await logStore.logs.read { try DeviceReports.loggedVersions([deviceID.rawValue: installed], in: $0)[deviceID.rawValue] ?? [:] }
    }

    private func loadOrCreate(_ deviceID: RecordID<DeviceRecord>, versions: [String: String]?, in connection: Connection) throws -> SimulatorStateRecord {
        if let stored = try connection.fetchOne(SimulatorStateRecord.query().filter("deviceID", .equal, deviceID)) { return stored }
        let device = try connection.require(DeviceRecord.self, id: deviceID)
        let apps = try Self.simulatedApps(of: device, connection: connection)
        // Whole seconds: the clock is stored as ISO 8601 text, which keeps no fractions.
        let clock = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        var state = SimulatedDevice(isSupervised: device.isSupervised, apps: apps, clock: clock)
        state.osVersion = device.osVersion
        if let versions, !versions.isEmpty { state.appVersions = versions }
        return try connection.insert(SimulatorStateRecord(
            deviceID: deviceID, state: state,
            appliedTag: "", installedProfiles: [:], revision: 0, updatedAt: now(), lockMode: nil))
    }

    // MARK: changing

    private func working(_ deviceID: RecordID<DeviceRecord>, versions: [String: String]?, in connection: Connection) throws -> Working {
        var record = try loadOrCreate(deviceID, versions: versions, in: connection)
        // A device's clock runs while nobody presses anything: it moves on by the time since
        // the state was last saved (whole seconds, as it is stored), so actions ten minutes
        // apart are stamped ten minutes apart; "Advance clock" adds to it on top.
        let elapsed = now().timeIntervalSince(record.updatedAt).rounded(.down)
        if elapsed >= 1 { record.state.clock = record.state.clock.addingTimeInterval(elapsed) }
        return Working(record: record, device: try connection.require(DeviceRecord.self, id: deviceID))
    }

    /// One control on the page or the API. The device first syncs, so it acts under the
    /// policy and commands that are current.
    func perform(_ action: SimulatorAction, on deviceID: RecordID<DeviceRecord>) async throws -> (SimulatorOutcome, SimulatorStateRecord) {
        let document = try await currentDocument(for: deviceID)
        let versions = try await startingVersions(of: deviceID)
        let (outcome, saved, upload) = try await database.write { connection in
            var working = try working(deviceID, versions: versions, in: connection)
            try noteCheckIn(&working.device, connection: connection)
            try syncSteps(&working, document: document, connection: connection)
            let outcome = working.run(action)
            let (saved, upload) = try save(working, document: document, connection: connection)
            return (outcome, saved, upload)
        }
        if let upload { try await store(upload) }
        return (outcome, saved)
    }

    /// What a check-in does: apply a changed policy, run queued commands. Answers whether
    /// anything changed, so callers know to tell an open page, and the state afterwards.
    @discardableResult
    func sync(_ deviceID: RecordID<DeviceRecord>) async throws -> (changed: Bool, state: SimulatorStateRecord) {
        let document = try await currentDocument(for: deviceID)
        let versions = try await startingVersions(of: deviceID)
        let (result, lastCheckIn, upload) = try await database.write { connection -> ((Bool, SimulatorStateRecord), Date?, Upload?) in
            var working = try working(deviceID, versions: versions, in: connection)
            let lastCheckIn = working.device.lastCheckInAt
            try syncSteps(&working, document: document, connection: connection)
            guard !working.events.isEmpty else { return ((false, working.record), lastCheckIn, nil) }
            let (saved, upload) = try save(working, document: document, connection: connection)
            return ((true, saved), lastCheckIn, upload)
        }
        if let upload { try await store(upload) }
        // After the sync, which writes nothing when nothing changed: a full disk leaves the
        // open simulator working and only the check-in time waits.
        try await CheckInRecording.note(deviceID, lastRecorded: lastCheckIn, at: now(), in: database)
        return result
    }

    /// A control's sync is the simulated device checking in, as a device's check-in through the
    /// API is, so its page and the device list say when it last answered. (It writes anyway.)
    private func noteCheckIn(_ device: inout DeviceRecord, connection: Connection) throws {
        let time = now()
        guard CheckInRecording.isDue(lastRecorded: device.lastCheckInAt, at: time) else { return }
        device.lastCheckInAt = time
        try connection.recordCheckIn(of: device.id, at: time)
    }

    /// The check-in answer for the device's group: the same cached document the device API
    /// serves, so an unchanged policy costs a dictionary lookup here too.
    private func currentDocument(for deviceID: RecordID<DeviceRecord>) async throws -> PolicyDocument {
        let (groupID, generation) = try await database.read { connection in
            (try connection.require(DeviceRecord.self, id: deviceID).groupID,
             try connection.scalar("SELECT value FROM policy_generation", as: Int64.self) ?? 0)
        }
        return try await checkIns.document(group: groupID, generation: generation, database: database)
    }

    /// Profile id → "Name vN" of the profiles reaching the device, read only when its policy
    /// changed, for the install/remove history.
    private func reachingProfileLabels(of deviceID: RecordID<DeviceRecord>, connection: Connection) throws -> [String: String] {
        guard let group = try connection.require(DeviceRecord.self, id: deviceID).groupID else { return [:] }
        let loader = PolicyLoader(connection: connection, cache: contents)
        var labels: [String: String] = [:]
        for reaching in try loader.reachingProfiles(group: group, groups: try loader.groups()) {
            labels[String(reaching.source.profileID)] = "\(reaching.source.profileName) v\(reaching.source.version)"
        }
        return labels
    }

    /// The apps on the device with their catalog traits; apps missing from the catalog count
    /// as unmanaged, like anything the user installed.
    static func simulatedApps(of device: DeviceRecord, connection: Connection) throws -> [SimulatedApp] {
        let catalog = try connection.fetch(AppRecord.query().filter("bundleID", in: device.installedApps))
        return device.installedApps.map { bundleID in
            guard let app = catalog.first(where: { $0.bundleID == bundleID }) else {
                return SimulatedApp(bundleID: bundleID, name: bundleID, isManaged: false)
            }
            return SimulatedApp(bundleID: app.bundleID, name: app.name, isManaged: app.isManaged, isSDKBuilt: app.isSDKBuilt,
                                hasAssessmentEntitlement: app.hasAssessmentEntitlement, role: app.role)
        }
    }

    /// An admin may have edited the device (apps, supervision, iOS version) since it last ran.
    /// (What the simulated device changes itself — an iOS update, a wipe — is written back to
    /// the record when it is saved, so a difference here is an admin's edit.)
    private func refreshDeviceFacts(_ working: inout Working, connection: Connection) throws {
        let device = working.device
        let apps = try Self.simulatedApps(of: device, connection: connection)
        var state = working.record.state
        if state.osVersion != device.osVersion {
            state.osVersion = device.osVersion
            working.record.state = state
        }
        guard apps != state.apps || device.isSupervised != state.isSupervised else { return }
        if state.wipedAt != nil, apps.contains(where: \.isManaged) {
            // Managed apps installed again after a wipe: the device is enrolled again.
            state.wipedAt = nil
        }
        state.apps = apps
        state.isSupervised = device.isSupervised
        if let open = state.foregroundApp, state.app(open) == nil { state.foregroundApp = nil }
        if let lock = state.lock, state.app(lock.app) == nil { state.lock = nil }
        working.record.state = state
        // Re-apply the policy: Single App Mode may have been waiting for an app now installed.
        working.record.appliedTag = ""
        working.events.append(SimulatorEvent(at: state.clock, action: "Device record changed", rule: "The console's record of the device",
                                             result: .done, message: "Apps and supervision updated from the device record."))
    }

    private func syncSteps(_ working: inout Working, document: PolicyDocument, connection: Connection) throws {
        try refreshDeviceFacts(&working, connection: connection)
        if document.tag != working.record.appliedTag {
            working.run(.applyPolicy(document.policy, conflict: document.conflict))
            working.record.appliedTag = document.tag
            if document.policy != nil {
                let profiles = try reachingProfileLabels(of: working.record.deviceID, connection: connection)
                try recordProfileChanges(from: working.record.installedProfiles, to: profiles,
                                         deviceID: working.record.deviceID, connection: connection)
                working.record.installedProfiles = profiles
            }
        }
        try runQueuedCommands(&working, connection: connection)
    }

    /// Install and remove happen by themselves when assignments change; they go into the
    /// command history as the MDM commands a real server would have sent, run at once.
    private func recordProfileChanges(from installed: [String: String], to wanted: [String: String],
                                      deviceID: RecordID<DeviceRecord>, connection: Connection) throws {
        let time = now()
        for (profileID, label) in wanted.sorted(by: { $0.key < $1.key }) where installed[profileID] != label {
            try CommandQueue.recordRun(DeviceCommand(requestType: .installProfile, .init(profileName: label)), on: deviceID, queuedBy: "Assignment change",
                                       report: CommandReport(status: .acknowledged, summary: "Installed at check-in."), queuedAt: time, at: time,
                                       connection: connection)
        }
        for (profileID, label) in installed.sorted(by: { $0.key < $1.key }) where wanted[profileID] == nil {
            try CommandQueue.recordRun(DeviceCommand(requestType: .removeProfile, .init(profileName: label)), on: deviceID, queuedBy: "Assignment change",
                                       report: CommandReport(status: .acknowledged, summary: "Removed at check-in."), queuedAt: time, at: time,
                                       connection: connection)
        }
    }

    /// The simulated device checks in with the queue as any device does: it is handed its
    /// waiting commands and reports on each.
    private func runQueuedCommands(_ working: inout Working, connection: Connection) throws {
        // An offline device is unreachable: commands wait, as they would for a real one.
        guard working.record.state.network != .offline else { return }
        let time = now()
        for handed in try commands.handOut(to: working.record.deviceID, at: time, connection: connection) {
            let report = CommandRunner.run(handed.command.command, on: &working)
            _ = try commands.record(report, for: handed.command.uuid, from: working.record.deviceID, at: time, connection: connection)
        }
    }

    private var commands: CommandQueue { CommandQueue(database: database, now: now) }

    /// Writes the step; answers the state saved and the logs the step uploaded, for the log store.
    private func save(_ working: Working, document: PolicyDocument, connection: Connection) throws -> (SimulatorStateRecord, Upload?) {
        var record = working.record
        record.revision += 1
        record.updatedAt = now()
        record.lockMode = record.state.lock?.code
        try connection.update(record)
        let time = now()
        let device = try writeBackDeviceFacts(record, to: working.device, beaconApps: working.beaconApps, at: time, connection: connection)
        for event in working.events {
            _ = try connection.insert(SimulatorEventRecord(
                deviceID: record.deviceID, deviceTime: event.at, recordedAt: time, action: event.action,
                rule: event.rule, result: event.result, message: event.message))
        }
        try connection.execute("""
            DELETE FROM simulator_events WHERE deviceID = \(record.deviceID) AND id <= (
                SELECT id FROM simulator_events WHERE deviceID = \(record.deviceID) ORDER BY id DESC LIMIT 1 OFFSET \(Self.timelineLength))
            """)
        guard !working.logs.isEmpty else { return (record, nil) }
        return (record, Upload(logs: working.logs, device: device, logging: document.policy?[Logging.self], at: time))
    }

    /// What the simulated device changed about itself goes to the console's record — an iOS
    /// update, the apps an enterprise wipe removed — and each beacon sent is kept as the
    /// device's last.
    private func writeBackDeviceFacts(_ record: SimulatorStateRecord, to device: DeviceRecord, beaconApps: [String], at time: Date,
                                      connection: Connection) throws -> DeviceRecord {
        var device = device
        let state = record.state
        let installed = state.apps.map(\.bundleID)
        let osVersion = state.osVersion ?? device.osVersion
        if device.osVersion != osVersion || (state.wipedAt != nil && device.installedApps != installed) {
            device.osVersion = osVersion
            if state.wipedAt != nil { device.installedApps = installed }
            try connection.update(device)
        }
        if let app = beaconApps.last {
            let group = try device.groupID.flatMap { try connection.find(DeviceGroupRecord.self, id: $0)?.name }
            try connection.recordBeacon(state.beacon(from: app, deviceName: device.name, group: group, user: device.owner), from: device.id, at: time)
        }
        return device
    }
}
