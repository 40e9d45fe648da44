import Domain
import Foundation
import Storage

/// The believable console a `--demo` start shows stakeholders: a lobby-kiosk, a clinic, an
/// exam and a field-sales story, each with apps, groups, devices and profiles. Seeded once,
/// into an empty catalog, so a demo database keeps whatever people changed during a demo.
enum DemoData {
    /// Seeds the stories and their two weeks of history into an empty catalog; false when
    /// there was something already (a second `--demo` start adds nothing twice).
    static func seedIfEmpty(database: Database, logs: Database, now: Date) async throws -> Bool {
        let hasData = try await database.read { try $0.count(AppRecord.query()) + $0.count(ProfileRecord.query()) > 0 }
        guard !hasData else { return false }
        let groups = try await seedCatalog(database: database, now: now)
        try await seedProfiles(groups: groups, database: database, now: now)
        try await DemoHistory.seed(database: database, logs: logs, now: now)
        try await database.write { connection in
            var settings = try ConsoleSettings.load(from: connection)
            (settings.organisationName, settings.showsDemoStories) = (organisationName, true)
            try settings.save(in: connection)
        }
        return true
    }

    static let actor = Actor(userID: nil, email: "demo@example.com")
    static let organisationName = "Example Group"

    private static func seedCatalog(database: Database, now: Date) async throws -> [String: RecordID<DeviceGroupRecord>] {
        try await database.write { connection in
            for app in apps {
                _ = try connection.insert(AppRecord(name: app.name, bundleID: app.bundleID, isManaged: app.managed, isSDKBuilt: app.sdk,
                                                    hasAssessmentEntitlement: app.assessment, iconColor: app.color, createdAt: now.days(-15),
                                                    role: appRoles[app.bundleID]))
            }
            var ids: [String: RecordID<DeviceGroupRecord>] = [:]
            for (name, parent) in groupTree {
                ids[name] = try connection.insert(DeviceGroupRecord(name: name, parentID: parent.flatMap { ids[$0] }, createdAt: now.days(-15))).id
            }
            var serial = 0
            for fleet in fleets {
                for index in 1...fleet.count {
                    serial += 1
                    let name = fleet.count == 1 ? fleet.prefix : "\(fleet.prefix) \(String(format: "%02d", index))"
                    _ = try connection.insert(DeviceRecord(
                        name: name, model: fleet.model, osVersion: fleet.os,
                        serialNumber: String(format: "DMQ%07dX", serial), udid: String(format: "00008030-%016X", 0x1A35E03C8A0000 + serial),
                        isSupervised: fleet.supervised, owner: fleet.owner, groupID: ids[fleet.group], installedApps: fleet.apps,
                        enrolledAt: now.days(-14).addingTimeInterval(Double(serial) * 600),
                        lastCheckInAt: now.addingTimeInterval(-Double(serial % 9) * 600 - 60)))
                }
            }
            return ids
        }
    }

    /// Each profile grows over the two weeks, one version at a time, as its admins refined it.
    private static func seedProfiles(groups: [String: RecordID<DeviceGroupRecord>], database: Database, now: Date) async throws {
        for profile in profiles {
            let created = try await ProfileStore(database: database, now: { now.days(-profile.versions[0].daysAgo) })
                .create(identifier: profile.identifier, content: ProfileContent(name: profile.name, descriptionMarkdown: profile.description), by: actor)
            for (index, version) in profile.versions.enumerated() {
                var content = ProfileContent(name: profile.name, descriptionMarkdown: profile.description)
                for payload in version.payloads { content = content.setting(payload) }
                let time = now.days(-version.daysAgo).addingTimeInterval(Double(index + 1) * 900)
                _ = try await ProfileStore(database: database, now: { time })
                    .saveVersion(of: created.id, basedOn: index + 1, content: content, note: version.note, by: actor)
            }
            let assignedAt = now.days(-profile.versions[0].daysAgo).addingTimeInterval(3600)
            try await database.write { connection in
                for group in profile.groups {
                    guard let groupID = groups[group] else { continue }
                    _ = try connection.insert(ProfileAssignmentRecord(profileID: created.id, groupID: groupID, assignedAt: assignedAt,
                                                                      assignedBy: actor.email))
                    try connection.audit(.profileAssigned, subject: created.auditSubject, by: actor, after: "assigned to \(group)", at: assignedAt)
                }
            }
        }
    }

    static let apps: [(name: String, bundleID: String, managed: Bool, sdk: Bool, assessment: Bool, color: String)] = [
        ("Lobby Check-In", "com.example.checkin", true, true, false, "#00897b"),
        ("Exam Browser", "com.example.exam", true, false, true, "#5e35b1"),
        ("Quiz Time", "com.example.quiz", true, false, false, "#f4511e"),
        ("Clinic Notes", "com.example.clinicnotes", true, true, false, "#1e88e5"),
        ("Field Sales", "com.example.fieldsales", true, true, false, "#fb8c00"),
        ("Work Mail", "com.example.mail", true, true, false, "#3949ab"),
        ("Work Browser", "com.example.browser", true, true, false, "#546e7a"),
        // Installed by staff themselves: the app DLP keeps patient data out of.
        ("Social Chat", "com.social.chat", false, false, false, "#43a047"),
    ]

    /// The clinic's DLP keeps links and mailto links in these.
    static let appRoles: [String: AppRole] = ["com.example.mail": .mail, "com.example.browser": .browser]

    static let groupTree: [(String, String?)] = [
        ("Kiosks", nil), ("Lobby kiosks", "Kiosks"), ("Clinics", nil), ("Clinic iPads", "Clinics"),
        ("Schools", nil), ("Exam iPads", "Schools"), ("Field sales", nil),
    ]

    static let fleets: [(prefix: String, count: Int, group: String, model: DeviceModel, os: String, supervised: Bool, owner: String, apps: [String])] = [
        ("Lobby kiosk", 6, "Lobby kiosks", .iPad, "18.1", true, "Front desk", ["com.example.checkin"]),
        ("Clinic iPad", 12, "Clinic iPads", .iPad, "17.6.1", true, "Ward staff", ["com.example.clinicnotes", "com.example.mail", "com.example.browser", "com.social.chat"]),
        ("Exam iPad", 16, "Exam iPads", .iPad, "18.0", true, "Exams office", ["com.example.exam", "com.example.quiz"]),
        ("Sales iPhone", 8, "Field sales", .iPhone, "18.1", false, "Sales team", ["com.example.fieldsales", "com.example.mail"]),
        // A student's own iPad, not supervised: ASAM cannot lock it, assessment mode can.
        ("Student iPad (own)", 1, "Exam iPads", .iPad, "18.1", false, "Student", ["com.example.exam", "com.example.quiz"]),
    ]

    /// Where field sales may open their app: head office and the North depot from the first
    /// version, the South depot from the second.
    static let salesAreas: [Geofence.Area] = [
        .init(name: "Head office", latitude: 51.5072, longitude: -0.1276, radiusMeters: 400),
        .init(name: "North depot", latitude: 53.4808, longitude: -2.2426, radiusMeters: 1500),
        .init(name: "South depot", latitude: 50.9097, longitude: -1.4044, radiusMeters: 1200),
    ]

    struct DemoProfile {
        let name: String
        let identifier: String
        let description: String
        let groups: [String]
        /// Each version's whole payload list, oldest first, with when and why it was saved.
        let versions: [(daysAgo: Int, note: String, payloads: [Payload])]
    }

    static var profiles: [DemoProfile] {
        var lock = SingleAppMode(appIdentifier: "com.example.checkin")
        var lockForVisitors = lock
        lockForVisitors.userEnabledOptions.zoom = true
        lockForVisitors.userEnabledOptions.voiceOver = true
        lock = lockForVisitors
        lock.options.disableAutoLock = true
        lock.options.disableRingerSwitch = true
        let kioskLogging = Payload(Logging(level: .warning, wifiOnly: true))
        let clinicPayloads: [Payload] = [
            Payload(DataLossPrevention(allowCopyPasteOut: false, allowThirdPartyKeyboards: false, openLinksInManagedBrowser: true,
                                    openMailtoInManagedMail: true)),
            Payload(Authentication(type: .passcode, singleSignOn: true, offlineAccessEnabled: true, maximumOfflineMinutes: 480)),
            Payload(Logging(level: .information)),
            Payload(ManagedAppConfiguration(appIdentifier: "com.example.clinicnotes", keys: [
                ConfigKey(name: "serverURL", type: .string, required: true, value: .string("https://notes.clinic.example")),
                ConfigKey(name: "ward", type: .string, allowedValues: ["North", "South", "Day surgery"], value: .string("North")),
                ConfigKey(name: "autoLogoutMinutes", type: .integer, minimum: 1, maximum: 60, value: .integer(10)),
            ])),
        ]
        let depots = Array(salesAreas.prefix(2))
        let salesSignIn = Payload(Authentication(type: .usernamePassword, singleSignOn: true))
        return [
            DemoProfile(name: "Lobby kiosk lockdown", identifier: "com.example.profiles.lobby-kiosk",
                        description: "Keeps the **lobby iPads** in the check-in app all day. Visitors can zoom and use VoiceOver.",
                        groups: ["Lobby kiosks"], versions: [
                            (13, "Lock the lobby iPads in Lobby Check-In", [Payload(SingleAppMode(appIdentifier: "com.example.checkin")), kioskLogging]),
                            (9, "Visitors may turn on Zoom and VoiceOver", [Payload(lockForVisitors), kioskLogging]),
                            (4, "No auto-lock or ringer switch: the iPads stay awake and quiet", [Payload(lock), kioskLogging]),
                        ]),
            DemoProfile(name: "Exam apps", identifier: "com.example.profiles.exams",
                        description: "Lets the exam and quiz apps lock the iPad for the length of a test (ASAM).",
                        groups: ["Exam iPads"], versions: [
                            (12, "Allow the exam and quiz apps to lock", [Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.quiz"]))]),
                        ]),
            DemoProfile(name: "Clinic data protection", identifier: "com.example.profiles.clinic",
                        description: "Patient data stays in managed apps: no copy out, system keyboard only, links in the work browser. Clinic Notes may lock the iPad while a patient holds it.",
                        groups: ["Clinics"], versions: [
                            (13, "Keep patient data in the work apps", clinicPayloads),
                            (6, "Let Clinic Notes lock the iPad for the patient hand-over",
                             clinicPayloads + [Payload(ASAMAllowlist(appIdentifiers: ["com.example.clinicnotes"]))]),
                        ]),
            DemoProfile(name: "Field sales", identifier: "com.example.profiles.field-sales",
                        description: "The sales app works at head office and the two depots, in the company colours, and sends its warnings to helpdesk.",
                        groups: ["Field sales"], versions: [
                            (13, "Head office and the North depot only", [Payload(Geofence(areas: depots)), salesSignIn]),
                            (8, "Add the South depot; company colours; keep warnings", [
                                Payload(Geofence(areas: salesAreas)),
                                Payload(Branding(primaryColor: RGBAColor(red: 238, green: 139, blue: 48))),
                                salesSignIn,
                                Payload(Logging(level: .warning)),
                            ]),
                        ]),
        ]
    }
}

extension Date {
    /// This time `days` days away (negative: before), for history laid out by day.
    func days(_ days: Int) -> Date { addingTimeInterval(Double(days) * 86_400) }
}
