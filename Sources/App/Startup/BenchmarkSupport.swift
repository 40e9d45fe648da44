import CSQLite
import Domain
import Foundation
import NIOCore
import Storage

/// What `payload-console bench …` measures; see `Benchmarks/README.md`.
public enum BenchmarkSupport {
    /// Times the effective-policy computation for one device reached by 20 profiles over five
    /// group levels, every profile carrying several payload kinds. Returns microseconds.
    public static func effectivePolicy(iterations: Int) -> (mean: Double, p99: Double) {
        let profiles = (0..<20).map { index in
            var content = ProfileContent(name: "Profile \(index)")
            content = content.setting(.dlp(DataLossPrevention(allowCopyPasteOut: index % 3 != 0)))
            content = content.setting(.asamAllowlist(ASAMAllowlist(appIdentifiers: (0..<10).map { "com.example.app\(($0 + index) % 15)" })))
            content = content.setting(.geofence(Geofence(areas: [.init(name: "Site \(index)", latitude: 51, longitude: 0, radiusMeters: 500)])))
            content = content.setting(.logging(Logging(level: LogLevel.allCases[index % 4])))
            if index % 5 == 0 { content = content.setting(.branding(Branding())) }
            return ReachingProfile(source: PolicySource(profileID: Int64(index), profileName: "Profile \(index)", version: 1,
                                                        groupName: "Level \(index % 5)", groupDistance: index % 5), content: content)
        }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        var sink = 0
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let policy = EffectivePolicy.compute(from: profiles)
            let elapsed = ContinuousClock.now - start
            sink &+= policy.warnings.count
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        precondition(sink >= 0)
        samples.sort()
        return (samples.reduce(0, +) / Double(samples.count), samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))])
    }

    /// Fills a database with `profiles` profiles and `devices` devices in five nested groups,
    /// for the page and check-in benchmarks. Every device gets a check-in token; the tokens are
    /// returned so the check-in benchmark can play the devices.
    @discardableResult
    public static func seed(databasePath: String, profiles profileCount: Int, devices deviceCount: Int) async throws -> [String] {
        let database = try Database(path: databasePath)
        _ = try Migrator(Schema.migrations).migrate(database)
        let now = Date()
        let store = ProfileStore(database: database, now: { now })
        let tokens = (0..<deviceCount).map { _ in DeviceTokens.mint() }
        let groups = try await database.write { connection -> [RecordID<DeviceGroupRecord>] in
            var ids: [RecordID<DeviceGroupRecord>] = []
            for level in 0..<5 {
                ids.append(try connection.insert(DeviceGroupRecord(id: nil, name: "Bench level \(level)", parentID: ids.last, createdAt: now)).id!)
            }
            for index in 0..<deviceCount {
                _ = try connection.insert(DeviceRecord(
                    id: nil, name: String(format: "Bench device %05d", index), model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "BENCH%07d", index), udid: String(format: "%040d", index), isSupervised: true,
                    owner: "", groupID: ids[index % ids.count], installedApps: ["com.example.checkin"], enrolledAt: now, lastCheckInAt: nil,
                    tokenHash: tokens[index].hash))
            }
            return ids
        }
        for index in 0..<profileCount {
            let content = ProfileContent(name: String(format: "Bench profile %04d", index))
                .setting(.dlp(DataLossPrevention(allowCopyPasteOut: index % 2 == 0)))
                .setting(.logging(Logging(level: LogLevel.allCases[index % 4])))
            let profile = try await store.create(identifier: "com.example.bench.p\(index)", content: content, by: .system)
            if index < 20 {
                try await database.write { connection in
                    _ = try connection.insert(ProfileAssignmentRecord(id: nil, profileID: profile.id!, groupID: groups[index % groups.count],
                                                                      assignedAt: now, assignedBy: "bench"))
                }
            }
        }
        return tokens.map(\.token)
    }
}

// MARK: - The log store (issue 13)

extension BenchmarkSupport {
    /// The group the log benchmark's devices are in; its logging profile collects every level.
    static let logGroupName = "Bench logs"
    static let linesPerBatch = 500

    /// What `bench seed-logs` did: the lines it added and the time their `LogStore.append`
    /// writes took (generating them excluded), and the store afterwards.
    public struct LogSeedResult: Sendable {
        public let added: Int
        public let seconds: Double
        public let totalLines: Int
        /// The database file after a checkpoint (every table and index, the FTS index included).
        public let fileBytes: Int
        /// The FTS index alone (`device_log_search_data`), and the log table with its indexes
        /// when SQLite's `dbstat` can say; nil when it cannot.
        public let searchIndexBytes: Int?
        public let logTableBytes: Int?
        public let deviceTokens: [String]
    }

    /// Adds `lines` log lines to the database at `databasePath` in batches of 500, each batch one
    /// `database.write` around `LogStore.append`, as an upload is stored. The first call also
    /// creates `devices` devices with tokens in one group, `apps` catalog apps, a profile whose
    /// logging payload collects every level (assigned to that group) and a log cap large enough
    /// never to refuse; a later call adds lines after the ones already there.
    public static func seedLogs(databasePath: String, lines lineCount: Int, apps appCount: Int, devices deviceCount: Int) async throws -> LogSeedResult {
        let database = try Database(path: databasePath)
        _ = try Migrator(Schema.migrations).migrate(database)
        let apps = BenchLogLines.apps(appCount)
        let tokens = try await setUpLogDevices(database, apps: apps, devices: deviceCount)
        let uploaders = try await logUploaders(database)
        var generator = BenchLogLines(apps: apps)
        let first = try await database.read { try $0.scalar("SELECT coalesce(max(id), 0) FROM device_logs", as: Int.self) } ?? 0
        var elapsed = Duration.zero
        var added = 0
        var batch = 0
        while added < lineCount {
            let lines = generator.batch(first + added, count: min(linesPerBatch, lineCount - added), apps: batch)
            let uploader = uploaders[batch % uploaders.count]
            let start = ContinuousClock.now
            try await database.write { connection in
                try LogStore.append(lines, from: uploader, receivedAt: Date(), in: connection)
            }
            elapsed += ContinuousClock.now - start
            added += lines.count
            batch += 1
        }
        try await database.checkpoint()
        let (total, searchBytes, tableBytes) = try await database.read { connection -> (Int, Int?, Int?) in
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
        let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: databasePath)[.size] as? Int) ?? 0)
            + ((try? FileManager.default.attributesOfItem(atPath: databasePath + "-wal")[.size] as? Int) ?? 0)
        return LogSeedResult(added: added, seconds: seconds(elapsed), totalLines: total, fileBytes: fileBytes,
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
            let group = try connection.insert(DeviceGroupRecord(id: nil, name: logGroupName, parentID: nil, createdAt: now)).id!
            for index in 0..<deviceCount {
                _ = try connection.insert(DeviceRecord(
                    id: nil, name: String(format: "Log device %05d", index), model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "LOGS%07d", index), udid: String(format: "1%039d", index), isSupervised: true,
                    owner: "", groupID: group, installedApps: Array(apps.prefix(5)), enrolledAt: now, lastCheckInAt: nil,
                    tokenHash: tokens[index].hash))
            }
            for (index, app) in apps.enumerated() {
                _ = try connection.insert(AppRecord(id: nil, name: String(format: "Bench app %02d", index), bundleID: app, isManaged: true,
                                                    isSDKBuilt: true, hasAssessmentEntitlement: false, iconColor: "#2f6fdf", createdAt: now))
            }
            // The default cap (200 MB an app) would refuse a long ingest run with 413.
            var settings = try ConsoleSettings.load(from: connection)
            settings.logCapBytes = 1 << 40
            try settings.save(in: connection)
            return group
        }
        let content = ProfileContent(name: "Bench logging").setting(.logging(Logging(enabled: true, level: .debug)))
        let profile = try await ProfileStore(database: database, now: { now }).create(identifier: "com.example.bench.logging", content: content, by: .system)
        try await database.write { connection in
            _ = try connection.insert(ProfileAssignmentRecord(id: nil, profileID: profile.id!, groupID: group, assignedAt: now, assignedBy: "bench"))
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
    public static func writeLogBodies(to directory: String, count: Int, apps appCount: Int) throws {
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

    /// What `bench ingest` measured, in lines a second.
    public struct IngestResult: Sendable {
        /// `LogUpload.lines` and `LogBatch.problem` on the bodies, plain and (when the `.gz`
        /// files exist) gzip: what the upload does before it asks for the writer.
        public let decodeRate: Double
        public let gzipDecodeRate: Double?
        /// `LogStore.append` inside `database.write`, a batch of 500 each.
        public let ormRate: Double
        /// The same rows by a prepared `INSERT` on a connection of its own, 500 to a transaction.
        public let rawRate: Double
    }

    /// Stores `lines` lines from the upload bodies in `bodiesDirectory` (written by
    /// `writeLogBodies`) twice, in batches of 500 from the benchmark's devices in turn: through
    /// `LogStore.append`, then by raw SQLite; and times reading the bodies as the upload does.
    public static func ingest(databasePath: String, bodiesDirectory: String, lines lineCount: Int) async throws -> IngestResult {
        var bodies: [[UInt8]] = []
        var gzipBodies: [[UInt8]] = []
        while let data = FileManager.default.contents(atPath: bodyPath(bodiesDirectory, bodies.count)) {
            bodies.append(Array(data))
            if let gzip = FileManager.default.contents(atPath: bodyPath(bodiesDirectory, bodies.count - 1) + ".gz") { gzipBodies.append(Array(gzip)) }
        }
        guard !bodies.isEmpty else { throw BenchError("no bodies in \(bodiesDirectory): run bench seed-logs --bodies-dir first") }

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

        let database = try Database(path: databasePath)
        let uploaders = try await logUploaders(database)
        guard !uploaders.isEmpty else { throw BenchError("no benchmark devices in \(databasePath): run bench seed-logs first") }
        var stored = 0
        var elapsed = Duration.zero
        var index = 0
        while stored < lineCount {
            let lines = batches[index % batches.count]
            let uploader = uploaders[index % uploaders.count]
            let start = ContinuousClock.now
            try await database.write { connection in
                try LogStore.append(lines, from: uploader, receivedAt: Date(), in: connection)
            }
            elapsed += ContinuousClock.now - start
            stored += lines.count
            index += 1
        }
        let ormRate = Double(stored) / seconds(elapsed)
        let rawRate = try RawLogInserter(path: databasePath).insert(batches, lines: lineCount, uploaders: uploaders)
        return IngestResult(decodeRate: decodeRate, gzipDecodeRate: gzipDecodeRate, ormRate: ormRate, rawRate: rawRate)
    }

    /// What `bench read-logs` measured on the oldest `lines` lines, in lines a second.
    public struct ReadResult: Sendable {
        public let lines: Int
        public let bytes: Int
        /// One `SELECT` of the export's columns on a connection of its own, every value read.
        public let rawRate: Double
        /// `LogQueries.export` in chunks of `LogDownload.chunkSize`, each its own `database.read`,
        /// rows only; and the same with `LogExport.append` writing NDJSON, as the export does.
        public let chunkedRate: Double
        public let formattedRate: Double
    }

    /// Reads the oldest `lines` lines as the NDJSON export does, without HTTP: the anchor for
    /// the export's rate.
    public static func readLogs(databasePath: String, lines lineCount: Int) async throws -> ReadResult {
        let raw = try RawLogInserter(path: databasePath)
        let rawStart = ContinuousClock.now
        let rawLines = try raw.readAll(limit: lineCount)
        let rawRate = Double(rawLines) / seconds(ContinuousClock.now - rawStart)

        let database = try Database(path: databasePath)
        let reader = LogReader(database: database)
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
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The benchmark's log lines, the same on every run (a fixed random sequence): 50 apps by
/// default, a batch's lines from five of them; a vocabulary where "request" is in about a third
/// of the lines, "failed" in 4%, "sync…" in 11%, "disk space" in 3%, "timeout" (E_TIMEOUT)
/// in 2% and "quokka" in one line of 50,000; 1% crash logs with five distinct signatures; every
/// fourth line with two structured fields.
struct BenchLogLines {
    let apps: [String]
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(apps: [String]) { self.apps = apps }

    static func apps(_ count: Int) -> [String] {
        (0..<count).map { String(format: "com.example.bench.app%02d", $0) }
    }

    /// The first line's time; line n is logged a tenth of a second after line n − 1.
    static let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z

    static let entities = ["orders", "customers", "products", "invoices", "shipments", "tickets", "devices", "reports"]
    static let screens = ["inventory", "checkout", "settings", "profile", "dashboard", "scanner", "orders", "messages"]
    static let networks = ["wifi", "cellular", "none"]
    static let versions = ["2.4", "2.4", "2.4", "2.3", "2.4.1"]
    static let crashes: [(first: String, frame: String)] = [
        ("Exception Type: EXC_BAD_ACCESS (SIGSEGV) at 0x%@", "SyncEngine.merge(_:)"),
        ("Fatal error: Index out of range in ItemListViewController.swift line 212", "ItemListViewController.cell(at:)"),
        ("Exception Type: EXC_CRASH (SIGABRT) in CheckoutFlow.confirm()", "CheckoutFlow.confirm()"),
        ("Fatal error: Unexpectedly found nil while unwrapping an Optional value in ScannerSession.swift line 88", "ScannerSession.start()"),
        ("Exception Type: EXC_BREAKPOINT (SIGTRAP) in ReportRenderer.layout(page:) for report %@", "ReportRenderer.layout(page:)"),
    ]

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    mutating func between(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func hex(_ digits: Int) -> String {
        let value = next()
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - text.count)) + text.suffix(digits)
    }

    /// `count` lines numbered from `first` (which decides their times), batch `batch`'s five apps.
    mutating func batch(_ first: Int, count: Int, apps batch: Int) -> [LogLine] {
        (0..<count).map { offset in
            let app = apps[(batch * 5 + offset % 5) % apps.count]
            return line(first + offset, app: app)
        }
    }

    mutating func line(_ number: Int, app: String) -> LogLine {
        let loggedAt = Self.start.addingTimeInterval(Double(number) / 10)
        let version = pick(Self.versions)
        let roll = next() % 100_000
        if roll < 1000 {
            let crash = pick(Self.crashes)
            let first = crash.first.replacingOccurrences(of: "%@", with: crash.first.hasPrefix("Exception Type: EXC_BAD") ? hex(12) : String(between(10_000..<99_999)))
            let message = """
                Incident Identifier: \(hex(8).uppercased())-\(hex(4).uppercased())-\(hex(4).uppercased())-\(hex(12).uppercased())
                Hardware Model: iPad13,16
                Process: \(app.split(separator: ".").last!) [\(between(100..<9999))]
                OS Version: iPadOS 18.1 (22B83)
                \(first)
                Thread 0 Crashed:
                0   App                     0x0000000\(hex(9)) \(crash.frame) + \(between(8..<900))
                1   libswiftCore.dylib      0x0000000\(hex(9)) swift_task_switch + 12
                2   libdispatch.dylib       0x0000000\(hex(9)) _dispatch_call_block_and_release + 32
                """
            return LogLine(app: app, appVersion: version, level: .error, kind: .crash, loggedAt: loggedAt, message: message)
        }
        let (level, message): (LogLevel, String)
        switch roll {
        case ..<1002: (level, message) = (.error, "Unexpected quokka state in \(pick(Self.screens)) controller")
        case ..<3000:
            (level, message) = (.error, "Request to https://api.example.com/v1/\(pick(Self.entities)) failed with E_TIMEOUT after \(between(5000..<30000)) ms (attempt \(between(1..<4)))")
        case ..<4000: (level, message) = (.error, "Failed to decode response from com.example.sync: keyNotFound \(pick(["id", "updatedAt", "owner", "status"]))")
        case ..<5000: (level, message) = (.error, "Database write failed with E_CONSTRAINT on table \(pick(Self.entities))")
        case ..<10000:
            (level, message) = (.warning, "Request to https://api.example.com/v1/\(pick(Self.entities)) is slow: \(between(1000..<5000)) ms (attempt \(between(1..<4)))")
        case ..<13000: (level, message) = (.warning, "Low disk space: \(between(100..<900)) MB free, caches will be trimmed")
        case ..<15000: (level, message) = (.warning, "Upload of \(pick(Self.entities)) queued for retry in \(between(5..<120)) s")
        case ..<40000:
            (level, message) = (.information, "Request GET /api/v2/\(pick(Self.entities))/\(between(1..<100_000)) finished in \(between(20..<900)) ms with status 200")
        case ..<50000: (level, message) = (.information, "Sync of \(pick(Self.entities)) completed: \(between(1..<500)) records synced in \(between(50..<3000)) ms")
        case ..<55000: (level, message) = (.information, "Background refresh scheduled by com.example.scheduler in \(between(60..<3600)) s")
        case ..<60000: (level, message) = (.information, "Network reachability changed to \(pick(Self.networks))")
        case ..<75000: (level, message) = (.debug, "Cache miss for key \(pick(Self.entities)):\(between(1..<100_000)); loading from store")
        case ..<90000: (level, message) = (.debug, "User tapped the \(pick(Self.screens)) button on the \(pick(Self.screens)) screen")
        default: (level, message) = (.debug, "Session token refreshed for user \(between(1..<50_000))")
        }
        let fields = number % 4 == 0 ? ["requestId": hex(16), "durationMs": String(between(1..<2000))] : [:]
        return LogLine(app: app, appVersion: version, level: level, kind: .application, loggedAt: loggedAt, message: message, fields: fields)
    }

    /// The line as a device uploads it: one NDJSON object and a newline.
    static func appendNDJSON(_ line: LogLine, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"app":"#.utf8)
        LogExport.appendJSONString(.text(line.app), to: &bytes)
        bytes.append(contentsOf: #","appVersion":"#.utf8)
        LogExport.appendJSONString(.text(line.appVersion), to: &bytes)
        bytes.append(contentsOf: #","level":"#.utf8)
        LogExport.appendJSONString(.text(line.level.rawValue), to: &bytes)
        bytes.append(contentsOf: #","type":"#.utf8)
        LogExport.appendJSONString(.text(line.kind.rawValue), to: &bytes)
        bytes.append(contentsOf: #","timestamp":""#.utf8)
        LogExport.appendISOTime(.real(line.loggedAt.timeIntervalSince1970), to: &bytes)
        bytes.append(contentsOf: #"","message":"#.utf8)
        LogExport.appendJSONString(.text(line.message), to: &bytes)
        if !line.fields.isEmpty {
            bytes.append(contentsOf: #","fields":"#.utf8)
            appendFields(line.fields, to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// A flat JSON object with sorted keys, as the ORM stores `fields`.
    static func appendFields(_ fields: [String: String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        for (offset, key) in fields.keys.sorted().enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            LogExport.appendJSONString(.text(key), to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            LogExport.appendJSONString(.text(fields[key]!), to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

/// SQLite without the storage layer: the anchor the ORM's insert and the export's read are
/// measured against. Its own connection, with the pragmas `Database` sets.
final class RawLogInserter {
    private let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw BenchmarkSupport.BenchError("cannot open \(path)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5000)
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(handle) }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        return statement
    }

    private func step(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle)))") }
    }

    private static func bind(_ text: String, _ index: Int32, _ statement: OpaquePointer) {
        var copy = text
        copy.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(bytes.count), csqlite_transient())
        }
    }

    /// Inserts `lines` lines from `batches` in turn, each batch one `BEGIN IMMEDIATE … COMMIT`
    /// with the same rows, index statement and usage upserts `LogStore.append` writes; returns
    /// lines a second.
    func insert(_ batches: [[LogLine]], lines lineCount: Int, uploaders: [LogStore.Uploader]) throws -> Double {
        let insert = try prepare("""
            INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let usage = try prepare("""
            INSERT INTO log_usage (app, byteCount, lineCount) VALUES (?, ?, ?)
            ON CONFLICT (app) DO UPDATE SET byteCount = byteCount + excluded.byteCount, lineCount = lineCount + excluded.lineCount
            """)
        let indexing = try prepare("INSERT INTO device_log_search(rowid, message) SELECT id, message FROM device_logs WHERE id BETWEEN ? AND ?")
        defer { sqlite3_finalize(insert); sqlite3_finalize(usage); sqlite3_finalize(indexing) }
        var stored = 0
        var index = 0
        var fields: [UInt8] = []
        let start = ContinuousClock.now
        while stored < lineCount {
            let lines = batches[index % batches.count]
            let uploader = uploaders[index % uploaders.count]
            let receivedAt = Date().timeIntervalSince1970
            try exec("BEGIN IMMEDIATE")
            var added: [String: (bytes: Int, lines: Int)] = [:]
            var first: Int64?
            for line in lines {
                sqlite3_bind_int64(insert, 1, uploader.id.rawValue)
                Self.bind(uploader.name, 2, insert)
                Self.bind(line.app, 3, insert)
                Self.bind(line.appVersion, 4, insert)
                Self.bind(line.kind.rawValue, 5, insert)
                Self.bind(line.level.rawValue, 6, insert)
                Self.bind(line.message, 7, insert)
                if line.fields.isEmpty { sqlite3_bind_null(insert, 8) } else {
                    fields.removeAll(keepingCapacity: true)
                    BenchLogLines.appendFields(line.fields, to: &fields)
                    Self.bind(String(decoding: fields, as: UTF8.self), 8, insert)
                }
                if let signature = line.signature { Self.bind(signature, 9, insert) } else { sqlite3_bind_null(insert, 9) }
                sqlite3_bind_double(insert, 10, line.loggedAt.timeIntervalSince1970)
                sqlite3_bind_double(insert, 11, receivedAt)
                let bytes = line.byteCount
                sqlite3_bind_int64(insert, 12, Int64(bytes))
                try step(insert)
                first = first ?? sqlite3_last_insert_rowid(handle)
                added[line.app, default: (0, 0)].bytes += bytes
                added[line.app, default: (0, 0)].lines += 1
            }
            sqlite3_bind_int64(indexing, 1, first ?? 0)
            sqlite3_bind_int64(indexing, 2, sqlite3_last_insert_rowid(handle))
            try step(indexing)
            for (app, sum) in added {
                Self.bind(app, 1, usage)
                sqlite3_bind_int64(usage, 2, Int64(sum.bytes))
                sqlite3_bind_int64(usage, 3, Int64(sum.lines))
                try step(usage)
            }
            try exec("COMMIT")
            stored += lines.count
            index += 1
        }
        return Double(stored) / BenchmarkSupport.seconds(ContinuousClock.now - start)
    }

    /// Reads the export's columns of the oldest `limit` lines in one statement, touching every
    /// value; returns how many rows it read.
    func readAll(limit: Int) throws -> Int {
        let select = try prepare("SELECT \(LogExport.columns) FROM device_logs AS l ORDER BY l.id LIMIT \(limit)")
        defer { sqlite3_finalize(select) }
        var rows = 0
        while sqlite3_step(select) == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(select) {
                switch sqlite3_column_type(select, column) {
                case SQLITE_INTEGER: _ = sqlite3_column_int64(select, column)
                case SQLITE_FLOAT: _ = sqlite3_column_double(select, column)
                case SQLITE_TEXT: _ = sqlite3_column_text(select, column); _ = sqlite3_column_bytes(select, column)
                default: break
                }
            }
            rows += 1
        }
        return rows
    }
}
