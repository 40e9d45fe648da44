import App
import CSQLite
import Domain
import Foundation
import NIOCore
import Storage

/// The benchmark's log lines, the same on every run (a fixed random sequence): 50 apps by
/// default, a batch's lines from five of them; a vocabulary where "request" is in about a third
/// of the lines, "failed" in 4%, "sync…" in 11%, "disk space" in 3%, "timeout" (E_TIMEOUT)
/// in 2% and "quokka" in one line of 50,000; 1% crash logs with five distinct signatures; every
/// fourth line with two structured fields.
struct BenchLogLines {
    let apps: [String]
    private var random = SeededRandom()

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

    mutating func next() -> UInt64 { random.next() }

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
            LogExport.appendFields(line.fields, to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
    }
}
