import App
import CSQLite
import Domain
import Foundation
import NIOCore
import Storage

// MARK: - The log store (issue 13)

extension BenchmarkSupport {
    /// The group the log benchmark's devices are in; its logging profile collects every level.
    static let logGroupName = "Bench logs"
    static let linesPerBatch = 500

    /// What `payload-console-bench seed-logs` did: the lines it added and the time their `LogStore.append`
    /// writes took (generating them excluded), the time the indexer took to bring the full-text
    /// index up to them, and the store afterwards.
    struct LogSeedResult: Sendable {
        let added: Int
        let seconds: Double
        let indexingSeconds: Double
        let totalLines: Int
        /// The log store's file after a checkpoint (every table and index, the FTS index included).
        let fileBytes: Int
        /// The FTS index alone (`device_log_search_data`), and the log table with its indexes
        /// when SQLite's `dbstat` can say; nil when it cannot.
        let searchIndexBytes: Int?
        let logTableBytes: Int?
        let deviceTokens: [String]
    }

    /// Adds `lines` log lines to the log store beside the database at `databasePath` in batches
    /// of 500, each batch one `write` around `LogStore.append`, as an upload is stored, then
    /// indexes them (`LogIndexer.catchUp`). The first call also
    /// creates `devices` devices with tokens in one group, `apps` catalog apps, a profile whose
    /// logging payload collects every level (assigned to that group) and a log cap large enough
    /// never to refuse; a later call adds lines after the ones already there.
    static func seedLogs(databasePath: String, lines lineCount: Int, apps appCount: Int, devices deviceCount: Int) async throws -> LogSeedResult {
        let files = try LogStoreFiles.open(consolePath: databasePath).files
        let (database, logs) = (files.console, files.logs)
        let apps = BenchLogLines.apps(appCount)
        let tokens = try await setUpLogDevices(database, apps: apps, devices: deviceCount)
        let uploaders = try await logUploaders(database)
        var generator = BenchLogLines(apps: apps)
        let first = try await logs.read { try $0.scalar("SELECT coalesce(max(id), 0) FROM device_logs", as: Int.self) } ?? 0
        var elapsed = Duration.zero
        var added = 0
        var batch = 0
        while added < lineCount {
            let lines = generator.batch(first + added, count: min(linesPerBatch, lineCount - added), apps: batch)
            let uploader = uploaders[batch % uploaders.count]
            let start = ContinuousClock.now
            try await logs.write { connection in
                try LogStore.append(lines, from: uploader, receivedAt: Date(), in: connection)
            }
            elapsed += ContinuousClock.now - start
            added += lines.count
            batch += 1
        }
        let indexingStart = ContinuousClock.now
        try await LogIndexer(logs: logs).catchUp()
        let indexing = ContinuousClock.now - indexingStart
        try await logs.checkpoint()
        if logs.dialect == .postgres {
            // Every day partition with its indexes and search words: the store's whole size.
            let (total, bytes) = try await logs.read { connection in
                (try connection.scalar("SELECT count(*) FROM device_logs", as: Int.self) ?? 0,
                 try connection.scalar("""
                    SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i
                    WHERE i.inhparent = 'device_logs'::regclass
                    """, as: Int.self) ?? 0)
            }
            return LogSeedResult(added: added, seconds: seconds(elapsed), indexingSeconds: seconds(indexing), totalLines: total, fileBytes: bytes,
                                 searchIndexBytes: nil, logTableBytes: nil, deviceTokens: tokens)
        }
        let (total, searchBytes, tableBytes) = try await logs.read { connection -> (Int, Int?, Int?) in
            let total = try connection.scalar("SELECT count(*) FROM device_logs", as: Int.self) ?? 0
            // dbstat is compiled into Debian's SQLite; when it is not, the FTS blocks alone are summed.
            if let sizes = try? connection.rows("SELECT name, sum(pgsize) FROM dbstat GROUP BY name") {
                var byName: [String: Int] = [:]
                for row in sizes { if case .text(let name) = row.values[0], case .integer(let size) = row.values[1] { byName[name] = Int(size) } }
                let search = byName.filter { $0.key.hasPrefix("device_log_search") }.values.reduce(0, +)
                let table = byName.filter { $0.key == "device_logs" || $0.key.hasPrefix("device_logs_") }.values.reduce(0, +)
                return (total, search, table)
            }
            return (total, try connection.scalar("SELECT sum(length(block)) FROM device_log_search_data", as: Int.self), nil)
        }
        let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: logs.path)[.size] as? Int) ?? 0)
            + ((try? FileManager.default.attributesOfItem(atPath: logs.path + "-wal")[.size] as? Int) ?? 0)
        return LogSeedResult(added: added, seconds: seconds(elapsed), indexingSeconds: seconds(indexing), totalLines: total, fileBytes: fileBytes,
                             searchIndexBytes: searchBytes, logTableBytes: tableBytes, deviceTokens: tokens)
    }

    /// Creates the benchmark's devices, apps, logging profile and settings unless they exist;
    /// returns the new devices' tokens (none when they existed).
    private static func setUpLogDevices(_ database: Database, apps: [String], devices deviceCount: Int) async throws -> [String] {
        let existing = try await database.read { try $0.fetchOne(DeviceGroupRecord.query().filter("name", .equal, logGroupName)) }
        guard existing == nil else { return [] }
        let now = Date()
        let tokens = (0..<deviceCount).map { _ in DeviceTokens.mint() }
        let group = try await database.write { connection -> RecordID<DeviceGroupRecord> in
            let group = try connection.insert(DeviceGroupRecord(name: logGroupName, parentID: nil, createdAt: now)).id
            for index in 0..<deviceCount {
                _ = try connection.insert(DeviceRecord(
                    name: String(format: "Log device %05d", index), model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "LOGS%07d", index), udid: String(format: "1%039d", index), isSupervised: true,
                    owner: "", groupID: group, installedApps: Array(apps.prefix(5)), enrolledAt: now, lastCheckInAt: nil,
                    tokenHash: tokens[index].hash))
            }
            for (index, app) in apps.enumerated() {
                _ = try connection.insert(AppRecord(name: String(format: "Bench app %02d", index), bundleID: app, isManaged: true,
                                                    isSDKBuilt: true, hasAssessmentEntitlement: false, iconColor: "#2f6fdf", createdAt: now))
            }
            // The default cap (200 MB an app) would refuse a long ingest run with 413.
            var settings = try ConsoleSettings.load(from: connection)
            settings.logCapBytes = 1 << 40
            try settings.save(in: connection)
            return group
        }
        let content = ProfileContent(name: "Bench logging").setting(Payload(Logging(enabled: true, level: .debug)))
        let profile = try await ProfileStore(database: database, now: { now }).create(identifier: "com.example.bench.logging", content: content, by: .system)
        try await database.write { connection in
            _ = try connection.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: group, assignedAt: now, assignedBy: "bench"))
        }
        return tokens.map(\.token)
    }

    private struct UploaderRow: Decodable {
        let id: RecordID<DeviceRecord>
        let name: String
    }

    /// The benchmark group's devices, as uploads name them.
    private static func logUploaders(_ database: Database) async throws -> [LogStore.Uploader] {
        try await database.read { connection in
            try connection.fetch(UploaderRow.self, """
                SELECT d.id, d.name FROM devices d JOIN device_groups g ON g.id = d.groupID WHERE g.name = \(logGroupName) ORDER BY d.id
                """).map { LogStore.Uploader(id: $0.id, name: $0.name) }
        }
    }

    /// Writes `count` upload bodies of 500 lines each (NDJSON, the device API's fields), from the
    /// same generator as the seed, as `body-000.ndjson`, … in `directory`.
    static func writeLogBodies(to directory: String, count: Int, apps appCount: Int) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var generator = BenchLogLines(apps: BenchLogLines.apps(appCount))
        for index in 0..<count {
            // After five million seeded lines (9 days of lines from 1 November), before today.
            let lines = generator.batch(8_000_000 + index * linesPerBatch, count: linesPerBatch, apps: index)
            var bytes: [UInt8] = []
            for line in lines { BenchLogLines.appendNDJSON(line, to: &bytes) }
            try Data(bytes).write(to: URL(fileURLWithPath: bodyPath(directory, index)))
        }
    }

    static func bodyPath(_ directory: String, _ index: Int) -> String {
        directory + "/" + String(format: "body-%03d.ndjson", index)
    }

    /// What `payload-console-bench ingest` measured, in lines a second.
    struct IngestResult: Sendable {
        /// `LogUpload.lines` and `LogBatch.problem` on the bodies, plain and (when the `.gz`
        /// files exist) gzip: what the upload does before it asks for the writer.
        let decodeRate: Double
        let gzipDecodeRate: Double?
        /// `LogStore.append` inside a write to the log store, a batch of 500 each.
        let ormRate: Double
        /// The same rows by a prepared `INSERT` on a connection of its own, 500 to a transaction.
        let rawRate: Double
    }

    /// Stores `lines` lines from the upload bodies in `bodiesDirectory` (written by
    /// `writeLogBodies`) twice, in batches of 500 from the benchmark's devices in turn: through
    /// `LogStore.append`, then by raw SQLite; and times reading the bodies as the upload does.
    static func ingest(databasePath: String, bodiesDirectory: String, lines lineCount: Int) async throws -> IngestResult {
        var bodies: [[UInt8]] = []
        var gzipBodies: [[UInt8]] = []
        while let data = FileManager.default.contents(atPath: bodyPath(bodiesDirectory, bodies.count)) {
            bodies.append(Array(data))
            if let gzip = FileManager.default.contents(atPath: bodyPath(bodiesDirectory, bodies.count - 1) + ".gz") { gzipBodies.append(Array(gzip)) }
        }
        guard !bodies.isEmpty else { throw BenchError("no bodies in \(bodiesDirectory): run payload-console-bench seed-logs --bodies-dir first") }

        func decode(_ body: [UInt8], gzip: Bool) throws -> [LogLine] {
            let lines = try LogUpload.lines(from: ByteBuffer(bytes: body), contentType: "application/x-ndjson", contentEncoding: gzip ? "gzip" : nil)
            if let problem = LogBatch.problem(lines) { throw BenchError("a benchmark body is refused: \(problem.message)") }
            return lines
        }
        func timeDecoding(_ bodies: [[UInt8]], gzip: Bool) throws -> Double {
            var decoded = 0
            let start = ContinuousClock.now
            while decoded < max(lineCount / 2, 100_000) {
                for body in bodies { decoded += try decode(body, gzip: gzip).count }
            }
            return Double(decoded) / seconds(ContinuousClock.now - start)
        }
        let batches = try bodies.map { try decode($0, gzip: false) }
        let decodeRate = try timeDecoding(bodies, gzip: false)
        let gzipDecodeRate = gzipBodies.count == bodies.count ? try timeDecoding(gzipBodies, gzip: true) : nil

        let files = try LogStoreFiles.open(consolePath: databasePath).files
        let uploaders = try await logUploaders(files.console)
        guard !uploaders.isEmpty else { throw BenchError("no benchmark devices in \(databasePath): run payload-console-bench seed-logs first") }
        var stored = 0
        var elapsed = Duration.zero
        var index = 0
        while stored < lineCount {
            let lines = batches[index % batches.count]
            let uploader = uploaders[index % uploaders.count]
            let start = ContinuousClock.now
            try await files.logs.write { connection in
                try LogStore.append(lines, from: uploader, receivedAt: Date(), in: connection)
            }
            elapsed += ContinuousClock.now - start
            stored += lines.count
            index += 1
        }
        let ormRate = Double(stored) / seconds(elapsed)
        let rawRate = try RawLogInserter(path: files.logs.path).insert(batches, lines: lineCount, uploaders: uploaders)
        return IngestResult(decodeRate: decodeRate, gzipDecodeRate: gzipDecodeRate, ormRate: ormRate, rawRate: rawRate)
    }

    /// What `payload-console-bench read-logs` measured on the oldest `lines` lines, in lines a second.
    struct ReadResult: Sendable {
        let lines: Int
        let bytes: Int
        /// One `SELECT` of the export's columns on a connection of its own, every value read.
        let rawRate: Double
        /// `LogQueries.export` in chunks of `LogDownload.chunkSize`, each its own `database.read`,
        /// rows only; and the same with `LogExport.append` writing NDJSON, as the export does.
        let chunkedRate: Double
        let formattedRate: Double
    }

    /// Reads the oldest `lines` lines as the NDJSON export does, without HTTP: the anchor for
    /// the export's rate.
    static func readLogs(databasePath: String, lines lineCount: Int) async throws -> ReadResult {
        let files = try LogStoreFiles.open(consolePath: databasePath).files
        let raw = try RawLogInserter(path: files.logs.path)
        let rawStart = ContinuousClock.now
        let rawLines = try raw.readAll(limit: lineCount)
        let rawRate = Double(rawLines) / seconds(ContinuousClock.now - rawStart)

        let reader = LogReader(logs: files.logs, console: files.console)
        guard let newest = try await reader.newestLineID() else { throw BenchError("no lines in \(databasePath)") }
        func pass(format: Bool) async throws -> (lines: Int, bytes: Int, rate: Double) {
            var after: RecordID<DeviceLogRecord>?
            var (lines, total) = (0, 0)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(LogDownload.chunkSize * 256)
            let start = ContinuousClock.now
            while lines < lineCount {
                let rows = try await reader.exportChunk(LogFilter(), after: after, through: newest, limit: min(LogDownload.chunkSize, lineCount - lines))
                if format {
                    bytes.removeAll(keepingCapacity: true)
                    for row in rows { LogExport.append(row, as: .ndjson, to: &bytes) }
                    total += bytes.count
                }
                lines += rows.count
                guard !rows.isEmpty, case .integer(let id)? = rows.last?.values.first else { break }
                after = RecordID(id)
            }
            return (lines, total, Double(lines) / seconds(ContinuousClock.now - start))
        }
        let chunked = try await pass(format: false)
        let formatted = try await pass(format: true)
        return ReadResult(lines: formatted.lines, bytes: formatted.bytes, rawRate: rawRate, chunkedRate: chunked.rate, formattedRate: formatted.rate)
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.seconds
    }
}
