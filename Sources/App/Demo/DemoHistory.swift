import Domain
import Foundation
import Storage

/// Two weeks behind the demo's stories, so helpdesk pages have something to find: app logs at
/// the levels each group's logging payload keeps, with two incidents — Lobby Check-In 2.4.0's
/// badge-printer crash, and a sales iPhone outside its geofence in a depot car park — managed
/// app feedback fetched daily with a trend, helpdesk's notes on those two devices, and a few
/// devices that stopped checking in with commands still waiting for them.
///
/// The same every start (a fixed random sequence), laid out by day back from `now`.
enum DemoHistory {
    static let days = 13
    /// The day (counted back from today) Lobby Check-In 2.4.0 reached the kiosks.
    static let checkInReleaseDay = 5
    /// The day the field-sales profile began keeping warnings (its second version).
    static let salesLoggingDay = 8
    static let helpdesk = "helpdesk@example.com"

    static func seed(database: Database, logs: Database, now: Date) async throws {
        var random = SeededRandom(seed: 2026)
        let devices = Dictionary(try await database.read { try $0.fetch(DeviceRecord.query()) }.map { ($0.name, $0) },
                                 uniquingKeysWith: { first, _ in first })
        // The lines first, in the log store's file: the rest of the history draws the same
        // random sequence after them.
        random = try await logs.write { [random] connection in
            var random = random
            for device in devices.values.sorted(by: { $0.name < $1.name }) {
                for day in (0...days).reversed() {
                    let lines = logLines(for: device, daysAgo: day, now: now, random: &random)
                    guard !lines.isEmpty else { continue }
                    try LogStore.append(lines, from: LogStore.Uploader(id: device.id, name: device.name),
                                        receivedAt: min(lines.map(\.loggedAt).max()!.addingTimeInterval(30), now), in: connection)
                }
            }
            return random
        }
        try await database.write { [random] connection in
            var random = random
            try seedFeedback(devices: devices, now: now, random: &random, connection: connection)
            try seedNotes(devices: devices, now: now, connection: connection)
            try seedQuietDevices(devices: devices, now: now, connection: connection)
        }
    }

    // MARK: logs

    /// A device's lines for one day, at the levels its group's logging payload keeps.
    static func logLines(for device: DeviceRecord, daysAgo day: Int, now: Date, random: inout SeededRandom) -> [LogLine] {
        let midnight = Calendar(identifier: .gregorian).startOfDay(for: now.days(-day))
        // Today's lines later than now are left out below, not squeezed before it: an
        // afternoon's warnings do not turn up at midnight.
        func at(_ hour: Int) -> Date {
            midnight.addingTimeInterval(Double(hour * 3600 + Int.random(in: 0..<3600, using: &random)))
        }
        var lines: [LogLine] = []
        if device.name.hasPrefix("Lobby kiosk") {
            let version = day <= checkInReleaseDay ? "2.4.0" : "2.3.2"
            for _ in 0..<Int.random(in: 2...5, using: &random) {
                let (level, message) = kioskMessages.randomElement(using: &random)!
                lines.append(LogLine(app: "com.example.checkin", appVersion: version, level: level, kind: .application, loggedAt: at(Int.random(in: 7...18, using: &random)),
                                     message: message))
            }
            // The incident: 2.4.0 crashes flushing the badge printer's queue on four kiosks of six.
            let kiosk = Int(device.name.suffix(2)) ?? 0
            if version == "2.4.0", kiosk <= 4 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    lines.append(crash(app: "com.example.checkin", process: "LobbyCheckIn", version: "2.4.0",
                                       first: "Exception Type: EXC_BAD_ACCESS (SIGSEGV) in BadgePrinter.flush()",
                                       frame: "BadgePrinter.flush()", at: at(Int.random(in: 8...17, using: &random)), random: &random))
                }
            }
            if version == "2.3.2", kiosk == 5, day % 6 == 0 {
                lines.append(crash(app: "com.example.checkin", process: "LobbyCheckIn", version: "2.3.2",
                                   first: "Fatal error: Index out of range in VisitorListView.swift line 58",
                                   frame: "VisitorListView.row(at:)", at: at(11), random: &random))
            }
        } else if device.name.hasPrefix("Clinic iPad") {
            for _ in 0..<Int.random(in: 3...7, using: &random) {
                let (app, level, message) = clinicMessages.randomElement(using: &random)!
                lines.append(LogLine(app: app, appVersion: "5.2.1", level: level, kind: .application, loggedAt: at(Int.random(in: 7...20, using: &random)),
                                     message: message, fields: ["ward": ["North", "South", "Day surgery"].randomElement(using: &random)!]))
            }
        } else if device.name.hasPrefix("Sales iPhone"), day <= salesLoggingDay {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let (level, message) = salesMessages.randomElement(using: &random)!
                lines.append(LogLine(app: "com.example.fieldsales", appVersion: "3.8", level: level, kind: .application,
                                     loggedAt: at(Int.random(in: 8...18, using: &random)), message: message))
            }
            // The complaint: Sales iPhone 03 spends its afternoons in the North depot's new car park.
            if device.name == "Sales iPhone 03" {
                for hour in [14, 15] {
                    lines.append(LogLine(app: "com.example.fieldsales", appVersion: "3.8", level: .warning, kind: .application, loggedAt: at(hour),
                                         message: "Geofence: outside every allowed area at 53.4662, -2.2398 (North depot car park); Field Sales blocked",
                                         fields: ["nearestArea": "North depot", "distanceMeters": "1634"]))
                }
            }
        }
        return lines.filter { $0.loggedAt <= now }
    }

    static func crash(app: String, process: String, version: String, first: String, frame: String, at time: Date,
                      random: inout SeededRandom) -> LogLine {
        let report = """
            Incident Identifier: \(String(random.next(), radix: 16, uppercase: true))-\(String(random.next() >> 16, radix: 16, uppercase: true))
            Hardware Model: iPad13,18
            Process: \(process) [\(Int.random(in: 300...9_000, using: &random))]
            Version: \(version)
            \(first)
            Thread 0 Crashed:
            0   \(process)  0x0000000102\(String(format: "%06x", Int.random(in: 0..<0xFFFFFF, using: &random))) \(frame) + 88
            1   \(process)  0x0000000102\(String(format: "%06x", Int.random(in: 0..<0xFFFFFF, using: &random))) AppDelegate.main + 40
            """
        return LogLine(app: app, appVersion: version, level: .error, kind: .crash, loggedAt: time, message: report)
    }

    static let kioskMessages: [(LogLevel, String)] = [
        (.warning, "Badge printer paper low"),
        (.warning, "Visitor lookup took 3.4 s: slow network to visitors.example.com"),
        (.warning, "Camera permission asked again after restart"),
        (.error, "Check-in sync failed: E_TIMEOUT talking to visitors.example.com"),
        (.warning, "Host notification queued: email server busy"),
    ]

    static let clinicMessages: [(String, LogLevel, String)] = [
        ("com.example.clinicnotes", .information, "Note saved and synced"),
        ("com.example.clinicnotes", .information, "Patient hand-over started (ASAM lock)"),
        ("com.example.clinicnotes", .information, "Patient hand-over ended; device unlocked"),
        ("com.example.clinicnotes", .warning, "Auto-logout after 10 minutes idle"),
        ("com.example.clinicnotes", .error, "Sync failed: E_TIMEOUT reaching notes.clinic.example"),
        ("com.example.mail", .information, "Mailbox synced"),
        ("com.example.browser", .information, "Opened intranet link from Clinic Notes in the work browser"),
        ("com.example.browser", .warning, "Blocked opening a link in an unmanaged browser"),
    ]

    static let salesMessages: [(LogLevel, String)] = [
        (.warning, "Order sync retried on cellular"),
        (.warning, "Price list older than 24 hours"),
        (.error, "Order upload failed: E_TIMEOUT (orders.example.com)"),
    ]

    // MARK: feedback, notes, quiet devices

    /// What the apps counted, fetched and reset each evening: check-ins per kiosk (and badge
    /// print failures since 2.4.0), orders synced and sync failures on the complaining iPhone,
    /// notes and hand-overs on a ward iPad.
    static func seedFeedback(devices: [String: DeviceRecord], now: Date, random: inout SeededRandom, connection: Connection) throws {
        let reports: [(device: String, app: String, values: (Int, inout SeededRandom) -> [String: Int])] = [
            ("Lobby kiosk 01", "com.example.checkin", { day, random in
                ["visitorsCheckedIn": Int.random(in: 80...140, using: &random),
                 "badgePrintFailures": day <= checkInReleaseDay ? Int.random(in: 3...8, using: &random) : Int.random(in: 0...1, using: &random)]
            }),
            ("Sales iPhone 03", "com.example.fieldsales", { day, random in
                ["ordersSynced": 10 + (days - day) + Int.random(in: 0...4, using: &random),
                 "syncFailures": day <= salesLoggingDay ? Int.random(in: 4...7, using: &random) : Int.random(in: 0...1, using: &random)]
            }),
            ("Clinic iPad 01", "com.example.clinicnotes", { _, random in
                ["notesWritten": Int.random(in: 18...32, using: &random), "handOvers": Int.random(in: 2...6, using: &random)]
            }),
        ]
        for report in reports {
            guard let deviceID = devices[report.device]?.id else { continue }
            for day in (1...days).reversed() {
                let time = Calendar(identifier: .gregorian).startOfDay(for: now.days(-day)).addingTimeInterval(18 * 3600)
                let values = report.values(day, &random)
                try CommandQueue.recordRun(DeviceCommand(requestType: .managedApplicationFeedback, .init(apps: [report.app], deleteFeedback: true)),
                                           on: deviceID, queuedBy: helpdesk,
                                           report: CommandReport(status: .acknowledged, summary: "Feedback from 1 app.",
                                                                 feedback: [report.app: values.mapValues { .number(Double($0)) }]),
                                           queuedAt: time, at: time.addingTimeInterval(40), connection: connection)
            }
        }
    }

    static func seedNotes(devices: [String: DeviceRecord], now: Date, connection: Connection) throws {
        let author = try connection.fetchOne(User.query().filter("email", .equal, helpdesk))
        let actor = Actor(userID: author?.id, email: helpdesk)
        let notes: [(device: String, daysAgo: Int, body: String)] = [
            ("Sales iPhone 03", 2, """
                **Geofence complaint.** The rep says Field Sales locks every afternoon at the North depot. The logs put the phone \
                at 53.4662, -2.2398 — the new car park, about 1.6 km from the depot's centre, outside its 1,500 m circle.

                - Not a fault on the phone: the area is too small.
                - Asked an admin to widen *North depot* in the Field sales profile. See [the geofence help](/help/payloads/geofence).
                """),
            ("Lobby kiosk 03", 3, """
                Badge printer swapped on the front desk. The crashes since **Lobby Check-In 2.4.0** are the printer queue \
                (`BadgePrinter.flush()`, see the app's crash groups), not the hardware — reported to the app's developers.
                """),
        ]
        for note in notes {
            guard let device = devices[note.device] else { continue }
            let deviceID = device.id
            let time = now.days(-note.daysAgo)
            _ = try connection.insert(DeviceNoteRecord(deviceID: deviceID, authorID: author?.id, authorTokenID: nil, authorEmail: helpdesk, body: note.body,
                                                       createdAt: time, updatedAt: time))
            try connection.audit(.noteAdded, subject: device.name, by: actor, at: time)
        }
    }

    /// Three devices stopped checking in days ago, with commands still waiting for them.
    static func seedQuietDevices(devices: [String: DeviceRecord], now: Date, connection: Connection) throws {
        let quiet: [(device: String, daysAgo: Int, command: DeviceCommand?)] = [
            ("Exam iPad 16", 3, DeviceCommand(requestType: .requestLogs)),
            ("Exam iPad 15", 2, nil),
            ("Clinic iPad 12", 2, DeviceCommand(requestType: .managedApplicationFeedback, .init(apps: ["com.example.clinicnotes"]))),
        ]
        for entry in quiet {
            guard var device = devices[entry.device] else { continue }
            let deviceID = device.id
            let lastSeen = now.days(-entry.daysAgo).addingTimeInterval(-5400)
            device.lastCheckInAt = lastSeen
            try connection.update(device)
            guard let command = entry.command else { continue }
            _ = try connection.insert(DeviceCommandRecord(deviceID: deviceID, command: command, queuedAt: lastSeen.addingTimeInterval(7200), queuedBy: helpdesk))
        }
    }
}
