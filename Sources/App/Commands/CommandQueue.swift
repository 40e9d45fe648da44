import Domain
import Foundation
import Storage

/// The one queue of commands for devices, used alike by the simulator, the device API and
/// MDM check-ins: it enqueues (audited), hands out a device's waiting commands and records
/// the device's reports, every change through `CommandProgress`'s rules.
///
/// The functions taking a `Connection` run inside a caller's transaction (the simulator's
/// step is one); the others open their own. Handing out and recording lock the device's
/// queue first, so two check-ins of one device racing on two consoles never both get the
/// same command or both record one report.
struct CommandQueue: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    /// Told of each queuing once it committed, so a channel can wake the devices.
    var wakeups: CommandWakeups? = nil

    /// Why a report or a cancel was not taken.
    enum Refusal: Error, Equatable {
        /// The device has no command with that UUID.
        case unknownCommand
        /// A real device that removed its MDM profile: nothing reaches it until it enrolls again.
        case deviceUnenrolled
        case progress(CommandProgress.Refusal)
    }

    /// The condition a query puts on `device_commands.status` for waiting commands, written
    /// as the partial index `device_commands_waiting` is, so the index serves it.
    static let waitingCondition = SQL(verbatim: "status IN (" + CommandStatus.waiting.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")")

    // MARK: enqueuing

    @discardableResult
    func enqueue(_ command: DeviceCommand, for deviceID: RecordID<DeviceRecord>, by user: User) async throws -> DeviceCommandRecord {
        try await enqueue(command, for: [deviceID], by: user)[0]
    }

    /// Queues the command for every device, or for none when one of them is gone; each queuing
    /// audited. Returns the queued commands.
    @discardableResult
    func enqueue(_ command: DeviceCommand, for deviceIDs: [RecordID<DeviceRecord>], by user: User) async throws -> [DeviceCommandRecord] {
        let time = now()
        let queued = try await database.write { connection in
            let names = try Self.names(of: deviceIDs, connection: connection)
            return try deviceIDs.map { deviceID in
                guard let name = names[deviceID] else { throw StorageError.notFound(table: DeviceRecord.tableName) }
                let queued = try connection.insert(DeviceCommandRecord(deviceID: deviceID, command: command, queuedAt: time, queuedBy: user.email))
                try connection.audit(.deviceCommand, subject: name, by: Actor(user), after: command.summary, at: time)
                return queued
            }
        }
        wakeups?.queued(for: deviceIDs)
        return queued
    }

    /// The devices' names, read a thousand at a time: a bulk action's audit names each device,
    /// and reading whole rows (installed apps and all) for ten thousand devices was most of it.
    private static func names(of deviceIDs: [RecordID<DeviceRecord>], connection: Connection) throws -> [RecordID<DeviceRecord>: String] {
        struct Named: Codable {
            let id: RecordID<DeviceRecord>
            let name: String
        }
        var names: [RecordID<DeviceRecord>: String] = [:]
        for start in stride(from: 0, to: deviceIDs.count, by: 1_000) {
            let chunk = Array(deviceIDs[start..<min(start + 1_000, deviceIDs.count)])
            for device in try connection.fetch(Named.self, "SELECT id, name FROM devices WHERE id IN (\(list: chunk))") { names[device.id] = device.name }
        }
        return names
    }

    /// A command the device ran in the same step it was queued (the simulator installing a
    /// profile at check-in): queued, sent and reported at once, for the history.
    static func recordRun(_ command: DeviceCommand, on deviceID: RecordID<DeviceRecord>, queuedBy: String, report: CommandReport,
                          queuedAt: Date, at time: Date, connection: Connection) throws {
        var record = DeviceCommandRecord(deviceID: deviceID, command: command, queuedAt: queuedAt, queuedBy: queuedBy)
        try record.progress.handOut(at: time)
        try record.progress.report(report.status, at: time)
        record.resultSummary = report.summary
        record.result = report.feedback
        try keepFeedback(of: try connection.insert(record), report: report, at: time, connection: connection)
    }

    // MARK: handing out

    /// A command as it was handed out, with the status it had before.
    struct HandedOut: Sendable {
        let command: DeviceCommandRecord
        let previous: CommandStatus
    }

    /// The device's waiting commands, oldest first, now marked sent; those past their
    /// lifetime expire instead. `limit` hands out only the first few (MDM sends one at a time);
    /// `skipping` leaves out commands the device put off in its current NotNow run;
    /// `exclusive` leaves out commands still in flight (`CommandProgress.isInFlight`), so two
    /// check-ins of one device racing on two consoles never both get one command.
    func handOut(to deviceID: RecordID<DeviceRecord>, limit: Int? = nil, skipping: Set<String> = [], exclusive: Bool = false,
                 at time: Date, connection: Connection) throws -> [HandedOut] {
        try connection.lock(Self.lockName(deviceID))
        var handed: [HandedOut] = []
        for var command in try connection.fetch(Self.waiting(for: deviceID)) where !skipping.contains(command.uuid) {
            if limit.map({ handed.count >= $0 }) == true { break }
            var progress = command.progress
            if exclusive, progress.isInFlight(at: time) { continue }
            if progress.expireIfDue(queuedAt: command.queuedAt, at: time) {
                command.progress = progress
                command.resultSummary = "Expired: the device did not run it within \(Int(DeviceCommand.lifetime / 86_400)) days."
                try connection.update(command)
                continue
            }
            let previous = progress.status
            try progress.handOut(at: time)
            command.progress = progress
            try connection.update(command)
            handed.append(HandedOut(command: command, previous: previous))
        }
        return handed
    }

    /// A device polls far more often than anything waits for it: a read answers the usual
    /// "nothing" without queuing on the single writer.
    func handOut(to deviceID: RecordID<DeviceRecord>, limit: Int? = nil) async throws -> [HandedOut] {
        guard try await database.read({ try $0.count(Self.waiting(for: deviceID)) }) > 0 else { return [] }
        let time = now()
        return try await database.write { try handOut(to: deviceID, limit: limit, at: time, connection: $0) }
    }

    // MARK: reports

    /// Records the device's report on a command it was sent, and the feedback an acknowledged
    /// feedback request carries. NotNow leaves the command waiting, to be sent again.
    func record(_ report: CommandReport, for uuid: String, from deviceID: RecordID<DeviceRecord>,
                at time: Date, connection: Connection) throws -> DeviceCommandRecord {
        try connection.lock(Self.lockName(deviceID))
        guard var command = try connection.fetchOne(DeviceCommandRecord.query().filter("uuid", .equal, uuid).filter("deviceID", .equal, deviceID)) else {
            throw Refusal.unknownCommand
        }
        do {
            try command.progress.report(report.status, at: time)
        } catch {
            throw Refusal.progress(error)
        }
        command.resultSummary = report.summary
        command.report = report.raw ?? command.report
        if report.status != .notNow { command.result = report.feedback }
        try connection.update(command)
        try Self.keepFeedback(of: command, report: report, at: time, connection: connection)
        return command
    }

    /// An acknowledged feedback request's answer joins the apps' feedback history.
    private static func keepFeedback(of command: DeviceCommandRecord, report: CommandReport, at time: Date, connection: Connection) throws {
        guard report.status == .acknowledged, command.requestType == .managedApplicationFeedback, let feedback = report.feedback else { return }
        try connection.recordFeedback(feedback, device: command.deviceID, command: command, at: time)
    }

    func record(_ report: CommandReport, for uuid: String, from deviceID: RecordID<DeviceRecord>) async throws -> DeviceCommandRecord {
        let time = now()
        return try await database.write { try record(report, for: uuid, from: deviceID, at: time, connection: $0) }
    }

    // MARK: taking back

    /// A person takes back one waiting command (one already sent may still run on the device).
    /// Whoever may send a command may take it back: anyone else is refused (403).
    func cancel(_ uuid: String, of deviceID: RecordID<DeviceRecord>, by user: User) async throws -> DeviceCommandRecord {
        let time = now()
        return try await database.write { connection in
            try connection.lock(Self.lockName(deviceID))
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            guard var command = try connection.fetchOne(DeviceCommandRecord.query().filter("uuid", .equal, uuid).filter("deviceID", .equal, deviceID)) else {
                throw Refusal.unknownCommand
            }
            guard user.role.includes(command.requestType.role) else { throw AccessDenied.insufficientRole }
            do {
                try command.progress.cancel(at: time)
            } catch let refusal as CommandProgress.Refusal {
                throw Refusal.progress(refusal)
            }
            command.resultSummary = "Cancelled by \(user.email)."
            try connection.update(command)
            try connection.audit(.deviceCommandCancelled, subject: device.name, by: Actor(user), before: command.command.summary, at: time)
            return command
        }
    }

    /// Cancels every waiting command of the device; answers how many.
    func clear(_ deviceID: RecordID<DeviceRecord>, by user: User) async throws -> Int {
        let time = now()
        return try await database.write { connection in
            try connection.lock(Self.lockName(deviceID))
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            let waiting = try connection.fetch(Self.waiting(for: deviceID))
            for var command in waiting {
                try command.progress.cancel(at: time)
                command.resultSummary = "Cancelled by \(user.email) with the whole queue."
                try connection.update(command)
            }
            if !waiting.isEmpty {
                try connection.audit(.deviceCommandsCleared, subject: device.name, by: Actor(user), after: "\(waiting.count) cancelled", at: time)
            }
            return waiting.count
        }
    }

    // MARK: reading

    /// The device as the command rules need it: its name, whether it is enrolled over MDM,
    /// its supervision and iOS. A real device that unenrolled takes no command.
    func target(_ deviceID: RecordID<DeviceRecord>) async throws -> CommandDraft.Target {
        try await database.read { connection in
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            let state = try connection.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, deviceID))?.state
            if state == .unenrolled { throw Refusal.deviceUnenrolled }
            return CommandDraft.Target(name: device.name, overMDM: state == .enrolled, isSupervised: device.isSupervised, osVersion: device.osVersion)
        }
    }

    /// The device's waiting commands, oldest first.
    static func waiting(for deviceID: RecordID<DeviceRecord>) -> Query<DeviceCommandRecord> {
        DeviceCommandRecord.query().filter("deviceID", .equal, deviceID).filter(waitingCondition).order(by: "id")
    }

    private static func lockName(_ deviceID: RecordID<DeviceRecord>) -> String { "device-commands-\(deviceID)" }
}
