import Domain
import Foundation
import Storage

/// Where uploaded log lines enter the console — from the device log API and from the
/// simulator alike. A batch is stored whole, in one transaction, or refused whole: invalid
/// lines, levels the device's policy does not collect, and apps at their cap are refused
/// before anything is written.
package struct LogStore: Sendable {
    /// The log store's file, where lines are written.
    let logs: Database
    /// The console's file: settings (the cap) and commands (a running capture).
    let console: Database
    /// Where a batch waits for the writer with the other uploads of its moment.
    let writes: LogGroupCommit
    /// Told after every stored batch, so the index follows within about a second.
    let indexing: WakeSignal
    let now: @Sendable () -> Date

    /// Why a batch was not stored.
    enum Refusal: Error, Equatable {
        case batch(LogBatch.Problem)
        /// The app's lines already fill its share of the store.
        case capReached(app: String, capBytes: Int)

        var message: String {
            switch self {
            case .batch(let problem): problem.message
            case .capReached(let app, let cap):
                "\(app) has used its \(ByteCountText.megabytes(cap)) of log storage; uploads are refused until retention or a deletion frees space."
            }
        }
    }

    /// Lines that passed `LogBatch.problem`, the only form `ingest` takes: each line is checked
    /// once, where its caller can best afford it — an upload's on the decoding threads
    /// (`LogUploadDecoding`), not on the threads that serve people.
    struct CheckedBatch: Sendable {
        let lines: [LogLine]

        init(_ lines: [LogLine]) throws(Refusal) {
            if let problem = LogBatch.problem(lines) { throw .batch(problem) }
            self.lines = lines
        }
    }

    /// The device a batch comes from, as the upload names it.
    package struct Uploader: Sendable {
        package let id: RecordID<DeviceRecord>
        package let name: String

        package init(id: RecordID<DeviceRecord>, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// A checked batch from one device, received now, with the rows the log table takes made
    /// ready: the one form `ingest` takes.
    struct Upload: Sendable {
        let lines: [LogLine]
        let device: Uploader
        let receivedAt: Date
        let rows: Rows
    }

    /// Makes `batch`'s rows: a few microseconds a line, so an upload's caller runs this where
    /// machine work belongs (a device's upload on the decoding threads, `LogUploadDecoding`),
    /// and the one writer only stores them.
    func prepare(_ batch: CheckedBatch, from device: Uploader) -> Upload {
        let time = now()
        return Upload(lines: batch.lines, device: device, receivedAt: time,
                      rows: Rows(batch.lines, from: device, receivedAt: time, dialect: logs.dialect))
    }

    /// Stores an upload (all or none) from a device whose check-in policy logs as `logging`,
    /// and returns how many lines were stored. The lines are durable in the log table when
    /// this returns; the full-text index takes them behind the writer (`LogIndexer`).
    @discardableResult
    func ingest(_ upload: Upload, logging: Logging?) async throws -> Int {
        let time = upload.receivedAt
        // The commands are read only when the level rule would refuse: most batches pass it.
        if let problem = LogBatch.levelProblem(upload.lines, logging: logging, capturing: false),
           try await !console.read({ try Self.isCapturing(upload.device.id, at: time, in: $0) }) {
            throw Refusal.batch(problem)
        }
        let capBytes = try await console.readSingleStatement { try ConsoleSettings.load(from: $0) }.logCapBytes
        let refusal = try await writes.write(to: logs) { connection in
            try Self.accept(upload.rows, capBytes: capBytes, at: time, in: connection)
        }
        if let refusal { throw refusal }
        indexing.wake()
        return upload.lines.count
    }

    /// A batch as the log table takes it: each line's values (on PostgreSQL with its search
    /// vector, the costliest part) and what it adds to each app's usage.
    struct Rows: Sendable {
        let values: [[SQLiteValue]]
        let usage: [String: (bytes: Int, lines: Int)]

        init(_ lines: [LogLine], from device: Uploader, receivedAt: Date, dialect: Dialect) {
            var usage: [String: (bytes: Int, lines: Int)] = [:]
            var giveWay = GiveWay(every: 32)
            values = lines.map { line in
                giveWay.step()
                let record = DeviceLogRecord(line, device: device.id, deviceName: device.name, receivedAt: receivedAt)
                usage[record.app, default: (0, 0)].bytes += record.byteCount
                usage[record.app, default: (0, 0)].lines += 1
                return LogQueries.insertValues(record, dialect)
            }
            self.usage = usage
        }
    }

    /// Inside a write to the log store: stores `rows` unless an app is at its cap, which is
    /// returned instead (and noted as a log event).
    static func accept(_ rows: Rows, capBytes: Int, at time: Date, in connection: Connection) throws -> Refusal? {
        // Uploads for an app through other consoles wait here, so no two of them pass the cap
        // check on the same figure (in name order: two batches never wait for each other).
        let apps = Set(rows.usage.keys)
        for app in apps.sorted() { try connection.lock("log-usage:" + app) }
        if let full = try appAtCap(apps, capBytes: capBytes, in: connection) {
            try noteCapReached(full, capBytes: capBytes, at: time, in: connection)
            return .capReached(app: full, capBytes: capBytes)
        }
        try append(rows, in: connection)
        return nil
    }

    /// Inserts the lines and adds them to their apps' usage: the one place lines are written.
    /// They reach the full-text index later, behind the writer (`LogIndexer`).
    package static func append(_ lines: [LogLine], from device: Uploader, receivedAt: Date, in connection: Connection) throws {
        try append(Rows(lines, from: device, receivedAt: receivedAt, dialect: connection.dialect), in: connection)
    }

    static func append(_ rows: Rows, in connection: Connection) throws {
        try connection.execute(LogQueries.insert(connection.dialect), forEachOf: rows.values)
        for (app, usage) in rows.usage {
            try connection.execute(LogQueries.addUsage(app: app, bytes: usage.bytes, lines: usage.lines))
        }
    }

    /// Whether the console asked this device to capture every level and the capture is still running.
    static func isCapturing(_ device: RecordID<DeviceRecord>, at time: Date, in connection: Connection) throws -> Bool {
        let recent = try connection.fetch(DeviceCommandRecord.query()
            .filter("deviceID", .equal, device).filter("requestType", .equal, DeviceCommand.RequestType.requestLogs.rawValue)
            .filter("status", .equal, CommandStatus.acknowledged.rawValue).order(by: "id", .descending).limit(5))
        return recent.contains { command in
            guard let minutes = command.parameters.captureMinutes, let started = command.completedAt else { return false }
            return time < started.addingTimeInterval(Double(minutes) * 60)
        }
    }

    /// The first of `apps` whose lines fill its cap, if any.
    static func appAtCap(_ apps: Set<String>, capBytes: Int, in connection: Connection) throws -> String? {
        let usages = try connection.fetch(LogUsage.self, LogQueries.usage(of: apps.sorted()))
        return usages.first { $0.byteCount >= capBytes }?.app
    }

    /// One event per hour per app is enough to say uploads are being refused.
    private static func noteCapReached(_ app: String, capBytes: Int, at time: Date, in connection: Connection) throws {
        let last = try connection.fetchOne(LogEventRecord.query().filter("app", .equal, app)
            .filter("kind", .equal, LogEventRecord.Kind.capReached.rawValue).order(by: "id", .descending))
        if let last, time.timeIntervalSince(last.at) < 3600 { return }
        _ = try connection.insert(LogEventRecord(
            app: app, kind: .capReached,
            message: "\(app) reached its log cap of \(ByteCountText.megabytes(capBytes)); new uploads are refused until retention or a deletion frees space.",
            at: time))
    }
}
