@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import CZlib
import Testing

/// `POST /api/v1/device/logs`: a batch is stored whole or refused whole, with the first reason,
/// and the device's logging policy and its apps' caps decide what the console keeps.
@Suite struct LogIngestTests {
    let devices = DeviceAPITests()

    /// One NDJSON line.
    static func line(_ level: String = "error", type: String = "application", message: String = "Printer offline",
                     app: String = "com.example.checkin", extra: String = "") -> String {
        #"{"app":"\#(app)","level":"\#(level)","type":"\#(type)","timestamp":"2026-11-23T09:30:00Z","message":"\#(message)"\#(extra)}"#
    }

    /// A gzip of one error line whose message is "gzip works" (made with Python's gzip module).
    static let gzippedLine = "H4sIABqfBGsC/xWLQQrCMBAA776i7LkN2xQL5h2evIWw1KWJWZKgtuLfuz0OM/MDLwIOQk6Gvj5JJBOeFFZ+QQ+R3hTVUim5KLdNSFGXyME3zmfUOFFtuqqxaOdhHAc73fHmJnSIxl7xoZlG1S/nvuws3SeXtcL/cgBz489vgQAAAA=="

    struct Sent {
        let status: HTTPResponse.Status
        let json: [String: Any]
        var code: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var field: String? { (json["error"] as? [String: Any])?["field"] as? String }
        var message: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    static func upload(_ client: any TestClientProtocol, token: String, lines: [String]? = nil, bytes: [UInt8]? = nil,
                       contentType: String = "application/x-ndjson", encoding: String? = nil) async throws -> Sent {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: contentType]
        if let encoding { headers[.contentEncoding] = encoding }
        let body = bytes ?? Array(((lines ?? []).joined(separator: "\n") + "\n").utf8)
        let response = try await client.execute(uri: "/api/v1/device/logs", method: .post, headers: headers, body: ByteBuffer(bytes: body))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
        return Sent(status: response.status, json: json)
    }

    /// A device in a group whose profile turns logging on at `level`; its token.
    func enrolledDevice(_ console: TestConsole, _ client: any TestClientProtocol, level: LogLevel?, name: String = "Lobby iPad") async throws
        -> DeviceAPITests.Enrolled {
        let (group, profile) = try await devices.setUp(console)
        if let level {
            var content = try console.services.database.readBlocking { try ProfileReader.latestVersion(of: profile, in: $0) }.content
            content = content.setting(Payload(Logging(enabled: true, level: level)))
            try await console.services.profileStore.saveVersion(of: profile, basedOn: nil, content: content, note: "logging", by: .system)
            try console.services.database.writeBlocking {
                _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test"))
            }
        }
        let admin = Browser(client)
        try await admin.signIn("ann@example.com", password: TestConsole.password)
        return try await devices.enroll(admin, name: name, supervised: true, group: group, app: "com.example.checkin", console: console)
    }

    func storedLines(_ console: TestConsole) throws -> [DeviceLogRecord] {
        try console.services.logs.readBlocking { try $0.fetch(DeviceLogRecord.query().order(by: "id")) }
    }

    @Test func aBatchIsStoredWithItsFieldsUsageAndCrashSignature() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: .warning)
            let sent = try await Self.upload(client, token: device.token, lines: [
                Self.line("warning", message: "Paper low", extra: #","appVersion":"2.4.1","fields":{"tray":2,"store":"Leeds","ok":false}"#),
                "",
                Self.line("error", type: "crash", message: #"Incident Identifier: X\nFatal error: Index out of range at 0x1a2b3c"#),
            ])
            #expect(sent.status == .ok)
            #expect(sent.json["stored"] as? Int == 2)
            let stored = try storedLines(console)
            #expect(stored.map(\.message) == ["Paper low", "Incident Identifier: X\nFatal error: Index out of range at 0x1a2b3c"])
            #expect(stored[0].appVersion == "2.4.1")
            #expect(stored[0].fields == ["ok": "false", "store": "Leeds", "tray": "2"])
            // Stored as one JSON object with its keys in order, so equal fields store equal text.
            struct StoredFields: Decodable { let fields: String? }
            let column = try console.services.logs.readBlocking { try $0.fetch(StoredFields.self, "SELECT fields FROM device_logs ORDER BY id") }
            #expect(column.first?.fields == #"{"ok":"false","store":"Leeds","tray":"2"}"#)
            #expect(stored[0].deviceName == "Lobby iPad")
            #expect(stored[1].signature == "Fatal error: Index out of range at 0x…")
            let usage = try console.services.logs.readBlocking { try $0.fetch(LogUsage.self, LogQueries.usage(of: ["com.example.checkin"])) }
            #expect(usage == [LogUsage(app: "com.example.checkin", byteCount: stored.reduce(0) { $0 + $1.byteCount }, lineCount: 2)])

            let gzipped = try await Self.upload(client, token: device.token, bytes: Array(Data(base64Encoded: Self.gzippedLine)!), encoding: "gzip")
            #expect(gzipped.status == .ok)
            #expect(try storedLines(console).last?.message == "gzip works")
        }
    }

    @Test func aBadLineRefusesTheWholeBatchAndNamesTheLine() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: .debug)
            let cases: [(lines: [String], field: String, message: String)] = [
                ([Self.line(), Self.line("loud")], "lines.2.level", "Line 2: level must be one of error, warning, information, debug."),
                ([Self.line(), Self.line(), "{not json"], "lines.3", "Line 3: is not a JSON object."),
                (["[1,2]"], "lines.1", "Line 1: is not a JSON object."),
                ([#"{"app":"com.example.checkin","level":"error","type":"application","timestamp":"2026-11-23T09:30:00Z"}"#],
                 "lines.1.message", "Line 1: message is required."),
                ([Self.line(type: "panic")], "lines.1.type", "Line 1: type must be application or crash."),
                ([Self.line().replacingOccurrences(of: "2026-11-23T09:30:00Z", with: "yesterday")], "lines.1.timestamp",
                 #"Line 1: timestamp must be a real ISO 8601 time with its zone, such as 2026-11-23T09:30:00Z, between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z; "yesterday" is not."#),
                ([Self.line(app: "checkin")], "lines.1.app", "Line 1: Enter a bundle ID like com.example.app: dot-separated parts of letters, digits and hyphens."),
                ([Self.line(message: String(repeating: "x", count: 8193))], "lines.1.message", "Line 1: A message is at most 8 KB; this one is 8193 bytes."),
                ([Self.line(message: #"bell\u0007"#)], "lines.1.message", "Line 1: Remove the invisible control character (U+0007)."),
                ([Self.line(extra: #","fields":{"nested":{"a":1}}"#)], "lines.1.fields.nested", "Line 1: fields.nested must be a string."),
            ]
            for (lines, field, message) in cases {
                let sent = try await Self.upload(client, token: device.token, lines: lines)
                #expect(sent.status == .unprocessableContent, "\(lines)")
                #expect(sent.code == "invalid_line")
                #expect(sent.field == field)
                #expect(sent.message == message)
            }
            let empty = try await Self.upload(client, token: device.token, lines: [""])
            #expect(empty.code == "no_lines")
            let wrongType = try await Self.upload(client, token: device.token, lines: [Self.line()], contentType: "application/json")
            #expect(wrongType.status == .unsupportedMediaType)
            let notGzip = try await Self.upload(client, token: device.token, lines: [Self.line()], encoding: "gzip")
            #expect(notGzip.status == .badRequest)
            #expect(notGzip.code == "malformed_gzip")
            let brotli = try await Self.upload(client, token: device.token, lines: [Self.line()], encoding: "br")
            #expect(brotli.code == "unsupported_encoding")
            #expect(try storedLines(console).isEmpty)
        }
    }

    @Test func levelsThePolicyDoesNotCollectAreRefusedUnlessCapturing() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: .warning)
            let debug = try await Self.upload(client, token: device.token, lines: [Self.line("error"), Self.line("debug")])
            #expect(debug.status == .unprocessableContent)
            #expect(debug.code == "level_not_collected")
            #expect(debug.field == "lines.2.level")
            #expect(debug.message == "Line 2 is Debug; this device's logging policy collects Warning and more severe messages.")
            #expect(try storedLines(console).isEmpty)

            // The console asked for a 10-minute capture and the device acknowledged it: every level is kept.
            try console.services.database.writeBlocking { connection in
                try CommandQueue.recordRun(DeviceCommand(requestType: .requestLogs, .init(captureMinutes: 10)), on: device.id, queuedBy: "test",
                                           report: CommandReport(status: .acknowledged, summary: ""), queuedAt: console.clock.now,
                                           at: console.clock.now, connection: connection)
            }
            let captured = try await Self.upload(client, token: device.token, lines: [Self.line("debug")])
            #expect(captured.status == .ok)
            // Ten minutes later the capture is over.
            console.clock.advance(by: 601)
            let after = try await Self.upload(client, token: device.token, lines: [Self.line("debug")])
            #expect(after.code == "level_not_collected")
        }
    }

    @Test func aDeviceWithoutLoggingHasNothingKept() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: nil)
            let sent = try await Self.upload(client, token: device.token, lines: [Self.line()])
            #expect(sent.code == "logging_off")
            let anonymous = try await client.execute(uri: "/api/v1/device/logs", method: .post, headers: [.contentType: "application/x-ndjson"],
                                                     body: ByteBuffer(string: Self.line()))
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func anAppAtItsCapIsRefusedWith413AndTheEventIsRecordedOnce() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try console.services.database.writeBlocking { try ConsoleSettings(logCapBytes: 20, logRetentionDays: 14).save(in: $0) }
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: .debug)
            let first = try await Self.upload(client, token: device.token, lines: [Self.line(message: "twenty-one characters")])
            #expect(first.status == .ok)
            for _ in 0..<2 {
                let refused = try await Self.upload(client, token: device.token, lines: [Self.line()])
                #expect(refused.status == .contentTooLarge)
                #expect(refused.code == "log_cap_reached")
            }
            // Another app still has room.
            let other = try await Self.upload(client, token: device.token, lines: [Self.line(app: "com.example.other")])
            #expect(other.status == .ok)
            let events = try console.services.logs.readBlocking { try $0.fetch(LogEventRecord.query()) }
            #expect(events.map(\.kind) == [.capReached])
            #expect(events.first?.app == "com.example.checkin")
        }
    }

    @Test func inflatingStopsAtItsLimit() throws {
        let compressed = Array(Data(base64Encoded: Self.gzippedLine)!)
        #expect(String(decoding: try Gzip.inflate(compressed, limit: 1000), as: UTF8.self).contains(#""message":"gzip works""#))
        #expect(throws: Gzip.Failure.tooLarge) { try Gzip.inflate(compressed, limit: 50) }
        #expect(throws: Gzip.Failure.corrupt) { try Gzip.inflate(Array(compressed.prefix(20)), limit: 1000) }
        #expect(throws: Gzip.Failure.corrupt) { try Gzip.inflate(Array("plain".utf8), limit: 1000) }
    }

    /// Deflates `bytes` into a gzip stream, to build a "zip bomb" without shipping one.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                _ = deflate(&stream, Z_FINISH)
            }
        }
        return Array(output.prefix(Int(stream.total_out)))
    }

    @Test func oversizeBodiesBombsAndWrongCredentialsAreRefusedAndChangeNothing() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let adminToken = try await APITests().token(console, role: .admin)
        try await console.test { client in
            let device = try await enrolledDevice(console, client, level: .debug)
            // Over 8 MB as sent.
            let big = Array(repeating: Self.line(message: String(repeating: "x", count: 8000)), count: 1100)
            let oversize = try await Self.upload(client, token: device.token, lines: big)
            #expect(oversize.status == .contentTooLarge)
            // A few kilobytes that inflate past 16 MB.
            let bomb = Self.gzip(Array(repeating: UInt8(ascii: "\n"), count: 17 << 20))
            #expect(bomb.count < 100_000)
            let inflated = try await Self.upload(client, token: device.token, bytes: bomb, encoding: "gzip")
            #expect(inflated.status == .contentTooLarge)
            #expect(inflated.code == "body_too_large")
            // An API token is not a device: 401, whatever its role.
            let script = try await Self.upload(client, token: adminToken, lines: [Self.line()])
            #expect(script.status == .unauthorized)
            // A line of the wrong JSON type: a number where the app goes.
            let wrongType = try await Self.upload(client, token: device.token,
                                                  lines: [#"{"app":7,"level":"error","type":"application","timestamp":"2026-11-23T09:30:00Z","message":"x"}"#])
            #expect(wrongType.code == "invalid_line")
            #expect(wrongType.field == "lines.1.app")
            #expect(try storedLines(console).isEmpty)
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }
}
