@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// An upload's answer counts every line that was sent: a body is read whole — every gzip member
/// — or refused whole, and a time that cannot have happened is refused, never moved.
@Suite struct LogUploadIntegrityTests {
    typealias Ingest = LogIngestTests

    func line(_ message: String, timestamp: String = "2026-11-23T09:30:00Z") -> String {
        Ingest.line(message: message).replacingOccurrences(of: "2026-11-23T09:30:00Z", with: timestamp)
    }

    @Test func everyGzipMemberOfABodyIsStored() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await Ingest().enrolledDevice(console, client, level: .debug)
            let first = Ingest.gzip(Array((line("a") + "\n").utf8))
            let rest = Ingest.gzip(Array((line("b") + "\n" + line("c") + "\n").utf8))
            let sent = try await Ingest.upload(client, token: device.token, bytes: first + rest, encoding: "gzip")
            #expect(sent.status == .ok)
            #expect(sent.json["stored"] as? Int == 3)
            #expect(try Ingest().storedLines(console).map(\.message) == ["a", "b", "c"])
        }
    }

    @Test func bytesAfterTheLastGzipMemberRefuseTheWholeBody() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await Ingest().enrolledDevice(console, client, level: .debug)
            let member = Ingest.gzip(Array((line("a") + "\n").utf8))
            for trailing in [Array(line("plain after gzip").utf8), [0, 0, 0, 0], [0x1F]] {
                let sent = try await Ingest.upload(client, token: device.token, bytes: member + trailing, encoding: "gzip")
                #expect(sent.status == .badRequest)
                #expect(sent.code == "malformed_gzip")
                #expect(sent.message?.contains("nothing was stored") == true)
            }
            let cutInSecond = member + Array(Ingest.gzip(Array((line("b") + "\n").utf8)).dropLast(6))
            #expect(try await Ingest.upload(client, token: device.token, bytes: cutInSecond, encoding: "gzip").code == "malformed_gzip")
            #expect(try Ingest().storedLines(console).isEmpty)
        }
    }

    @Test func impossibleTimesAreRefusedNamingTheLine() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let device = try await Ingest().enrolledDevice(console, client, level: .debug)
            for impossible in ["2025-11-20T25:00:00Z", "2025-02-30T10:00:00Z", "2025-11-20T10:61:00Z", "2025-11-20T10:00:60Z",
                               "2025-02-29T10:00:00Z", "2025-11-20T10:00:00+25:00", "2025-13-01T10:00:00Z", "2025-11-20T10:00:00"] {
                let sent = try await Ingest.upload(client, token: device.token, lines: [line("fine"), line("moved?", timestamp: impossible)])
                #expect(sent.status == .unprocessableContent, "\(impossible)")
                #expect(sent.field == "lines.2.timestamp")
                #expect(sent.message?.contains(impossible) == true)
            }
            #expect(try Ingest().storedLines(console).isEmpty)

            let real = try await Ingest.upload(client, token: device.token, lines: [
                line("leap day", timestamp: "2024-02-29T23:59:59Z"), line("India", timestamp: "2026-11-23T09:30:00.250+05:30"),
            ])
            #expect(real.status == .ok)
            let stored = try Ingest().storedLines(console)
            #expect(stored.map(\.loggedAt.timeIntervalSince1970) == [1_709_251_199, 1_795_406_400.25])
        }
    }
}
