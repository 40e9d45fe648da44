@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// A device's clock may say anything. The console keeps every time from 0001-01-01 to
/// 9999-12-31 in UTC as the same millisecond on either backend — stored, filtered, exported
/// and shown — and refuses the rest by name; no stored time, however odd, ends the process.
@Suite struct DeviceTimeRangeTests {
    let ingest = LogIngestTests()

    /// Times at the edges of the range, as devices send them, and as the console writes them back.
    static let edges: [(sent: String, written: String)] = [
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),  // .NET's DateTime.MinValue
        ("1899-12-31T23:59:59.5+00:00", "1899-12-31T23:59:59.500Z"),
        ("1582-10-04T12:00:00Z", "1582-10-04T12:00:00Z"),  // the Julian calendar's last day
        ("2026-11-23T10:30:00.1234+01:00", "2026-11-23T09:30:00.123Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
    ]

    static func line(_ timestamp: String, _ message: String) -> String {
        #"{"app":"com.example.checkin","level":"error","type":"application","timestamp":"\#(timestamp)","message":"\#(message)"}"#
    }

    let api = APITests()

    /// A console with an admin's API token and a device whose policy collects errors.
    func withLoggingDevice(_ body: @escaping @Sendable (TestConsole, any TestClientProtocol, String, DeviceAPITests.Enrolled) async throws -> Void) async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            try await body(console, client, admin, try await ingest.enrolledDevice(console, client, level: .error))
        }
    }

    @Test func edgeTimesAreStoredFilteredAndExportedAsSentOnEitherBackend() async throws {
        try await withLoggingDevice { console, client, admin, device in
            let sent = try await LogIngestTests.upload(client, token: device.token,
                                                       lines: Self.edges.enumerated().map { Self.line($1.sent, "edge \($0)") })
            #expect(sent.status == .ok && sent.json["stored"] as? Int == Self.edges.count)

            let export = try await client.execute(uri: "/api/v1/logs/export?format=ndjson", method: .get, headers: [.authorization: "Bearer \(admin)"])
            #expect(export.status == .ok)
            let exported = String(buffer: export.body).split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            let written = Dictionary(uniqueKeysWithValues: exported.map { ($0["message"] as? String ?? "", $0["timestamp"] as? String ?? "") })
            for (index, edge) in Self.edges.enumerated() {
                #expect(written["edge \(index)"] == edge.written, "\(edge.sent)")
            }
            let text = try await client.execute(uri: "/api/v1/logs/export?format=text", method: .get, headers: [.authorization: "Bearer \(admin)"])
            #expect(text.status == .ok && String(buffer: text.body).contains("0001-01-01T00:00:00Z"))

            // A filter at the range's first millisecond finds the first line on both backends.
            let first = try await api.call(client, .get, "/api/v1/logs?to=0001-01-01T00:00:00.001Z", token: admin)
            #expect((first.json["logs"] as? [[String: Any]])?.compactMap { $0["message"] as? String } == ["edge 0"])
            #expect((first.json["logs"] as? [[String: Any]])?.first?["timestamp"] as? String == "0001-01-01T00:00:00Z",
                    "answers count in the proleptic Gregorian calendar, as exports do")
            let last = try await api.call(client, .get, "/api/v1/logs?from=9999-12-31T23:59:59.999Z", token: admin)
            #expect((last.json["logs"] as? [[String: Any]])?.compactMap { $0["message"] as? String } == ["edge 4"])
            let page = try await client.execute(uri: "/logs", method: .get, headers: [:])
            #expect(page.status != .internalServerError)
        }
    }

    @Test func timesOutsideTheRangeAreRefusedByNameAndNothingIsStored() async throws {
        try await withLoggingDevice { console, client, admin, device in
            for (index, outside) in ["0000-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"].enumerated() {
                let sent = try await LogIngestTests.upload(client, token: device.token, lines: [Self.line("2026-11-23T09:30:00Z", "fine"), Self.line(outside, "odd \(index)")])
                #expect(sent.status == .unprocessableContent && sent.field == "lines.2.timestamp", "\(outside)")
                #expect(sent.message?.contains("between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z") == true)
            }
            #expect(try ingest.storedLines(console).isEmpty)
            let filter = try await api.call(client, .get, "/api/v1/logs?to=0000-06-01T00:00:00Z", token: admin)
            #expect(filter.status == .badRequest && filter.json["error"] != nil)
        }
    }
}

/// The one writer of times as text: the proleptic Gregorian calendar, total over every value.
@Suite struct ISOTimeTextTests {
    func written(_ seconds: Double, _ precision: ISOTimeText.Precision = .milliseconds) -> String {
        var bytes: [UInt8] = []
        ISOTimeText.append(secondsSince1970: seconds, precision: precision, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func everyValueARowCanHoldIsWrittenWithoutATrap() {
        #expect(written(-62_135_596_800) == "0001-01-01T00:00:00Z")
        #expect(written(253_402_300_799.999) == "9999-12-31T23:59:59.999Z")
        #expect(written(253_402_300_800) == "+10000-01-01T00:00:00Z", "not 0000-01-01")
        #expect(written(-62_135_596_801) == "0000-12-31T23:59:59Z")
        #expect(written(-62_198_755_200) == "-0001-01-01T00:00:00Z")
        #expect(written(-.infinity) == "-infinity" && written(.infinity) == "infinity" && written(.nan) == "-infinity")
        #expect(written(-9_223_372_036_854.775).hasPrefix("-290308-12-21T19:59:05"), "as far as PostgreSQL's microseconds reach")
        #expect(written(-1e13) == "-infinity" && written(.greatestFiniteMagnitude) == "infinity")
        #expect(written(8_000_000_000_000) == "+255479-11-28T14:13:20Z")
        #expect(written(1.9994, .seconds) == "1970-01-01T00:00:01Z" && written(1.9996, .seconds) == "1970-01-01T00:00:02Z",
                "rounded to the millisecond first, then whole seconds")
    }

    @Test func pagesNameTimesNoClockReachesByTheirDay() {
        let now = Date(timeIntervalSince1970: 1_795_426_200)
        #expect(DisplayTime.relative(Date(timeIntervalSince1970: -.infinity), now: now) == "-infinity")
        #expect(DisplayTime.relative(Date(timeIntervalSince1970: .infinity), now: now) == "infinity")
        #expect(DisplayTime.relative(Date(timeIntervalSince1970: -62_135_596_800), now: now) == "0001-01-01")
        #expect(DisplayTime.relative(now.addingTimeInterval(-120), now: now) == "2 minutes ago")
    }
}
