import Domain
import Foundation
import Storage

/// The believable console a `--demo` start shows stakeholders: a lobby-kiosk, a clinic, an
/// exam and a field-sales story, each with apps, groups, devices and profiles. Seeded once,
/// into an empty catalog, so a demo database keeps whatever people changed during a demo.
enum DemoData {
    static func seedIfEmpty(database: Database, now: Date) async throws -> Bool {
        let hasData = try await database.read { try $0.count(AppRecord.query()) + $0.count(ProfileRecord.query()) > 0 }
        guard !hasData else { return false }
        let store = ProfileStore(database: database, now: { now })
        let actor = Actor(userID: nil, email: "demo@example.com")
        let groups = try await database.write { connection -> [String: RecordID<DeviceGroupRecord>] in
            for app in apps {
                _ = try connection.insert(AppRecord(id: nil, name: app.name, bundleID: app.bundleID, isManaged: app.managed, isSDKBuilt: app.sdk,
                                                    hasAssessmentEntitlement: app.assessment, iconColor: app.color, createdAt: now))
            }
            var ids: [String: RecordID<DeviceGroupRecord>] = [:]
            for (name, parent) in groupTree {
                ids[name] = try connection.insert(DeviceGroupRecord(id: nil, name: name, parentID: parent.flatMap { ids[$0] }, createdAt: now)).id
            }
            var serial = 0
            for fleet in fleets {
                for index in 1...fleet.count {
                    serial += 1
                    _ = try connection.insert(DeviceRecord(
                        id: nil, name: "\(fleet.prefix) \(String(format: "%02d", index))", model: fleet.model, osVersion: fleet.os,
                        serialNumber: String(format: "DMQ%07dX", serial), udid: String(format: "00008030-%016X", 0x1A35E03C8A0000 + serial),
                        isSupervised: fleet.supervised, owner: fleet.owner, groupID: ids[fleet.group], installedApps: fleet.apps,
                        enrolledAt: now.addingTimeInterval(-Double(serial) * 3600 * 7), lastCheckInAt: now.addingTimeInterval(-Double(serial % 9) * 600)))
                }
            }
            return ids
        }
        for profile in profiles {
            let created = try await store.create(identifier: profile.identifier,
                                           content: ProfileContent(name: profile.name, descriptionMarkdown: profile.description), by: actor)
            var content = ProfileContent(name: profile.name, descriptionMarkdown: profile.description)
            for payload in profile.payloads { content = content.setting(payload) }
            try await store.saveVersion(of: created.id!, basedOn: 1, content: content, note: "Added the payloads", by: actor)
            try await database.write { connection in
                for group in profile.groups {
                    guard let groupID = groups[group] else { continue }
                    _ = try connection.insert(ProfileAssignmentRecord(id: nil, profileID: created.id!, groupID: groupID, assignedAt: now, assignedBy: actor.email))
                }
            }
        }
        return true
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

    static let groupTree: [(String, String?)] = [
        ("Kiosks", nil), ("Lobby kiosks", "Kiosks"), ("Clinics", nil), ("Clinic iPads", "Clinics"),
        ("Schools", nil), ("Exam iPads", "Schools"), ("Field sales", nil),
    ]

    static let fleets: [(prefix: String, count: Int, group: String, model: DeviceModel, os: String, supervised: Bool, owner: String, apps: [String])] = [
        ("Lobby kiosk", 6, "Lobby kiosks", .iPad, "18.1", true, "Front desk", ["com.example.checkin"]),
        ("Clinic iPad", 12, "Clinic iPads", .iPad, "17.6.1", true, "Ward staff", ["com.example.clinicnotes", "com.example.mail", "com.example.browser", "com.social.chat"]),
        ("Exam iPad", 16, "Exam iPads", .iPad, "18.0", true, "Exams office", ["com.example.exam", "com.example.quiz"]),
        ("Sales iPhone", 8, "Field sales", .iPhone, "18.1", false, "Sales team", ["com.example.fieldsales", "com.example.mail"]),
    ]

    static var profiles: [(name: String, identifier: String, description: String, payloads: [Payload], groups: [String])] {
        var lobbyLock = SingleAppMode(appIdentifier: "com.example.checkin")
        lobbyLock.options.disableAutoLock = true
        lobbyLock.options.disableRingerSwitch = true
        lobbyLock.userEnabledOptions.zoom = true
        lobbyLock.userEnabledOptions.voiceOver = true
        return [
            ("Lobby kiosk lockdown", "com.example.profiles.lobby-kiosk",
             "Keeps the **lobby iPads** in the check-in app all day. Visitors can zoom and use VoiceOver.",
             [.singleAppMode(lobbyLock), .logging(Logging(level: .warning, wifiOnly: true))], ["Lobby kiosks"]),
            ("Exam apps", "com.example.profiles.exams",
             "Lets the exam and quiz apps lock the iPad for the length of a test (ASAM).",
             [.asamAllowlist(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.quiz"]))], ["Exam iPads"]),
            ("Clinic data protection", "com.example.profiles.clinic",
             "Patient data stays in managed apps: no copy out, system keyboard only, links in the work browser.",
             [.dlp(DataLossPrevention(allowCopyPasteOut: false, allowThirdPartyKeyboards: false, openLinksInManagedBrowser: true,
                                      openMailtoInManagedMail: true)),
              .authentication(Authentication(type: .passcode, singleSignOn: true, offlineAccessEnabled: true, maximumOfflineMinutes: 480)),
              .logging(Logging(level: .information)),
              .managedAppConfig(ManagedAppConfiguration(appIdentifier: "com.example.clinicnotes", keys: [
                  ConfigKey(name: "serverURL", type: .string, required: true, value: .string("https://notes.clinic.example")),
                  ConfigKey(name: "ward", type: .string, allowedValues: ["North", "South", "Day surgery"], value: .string("North")),
                  ConfigKey(name: "autoLogoutMinutes", type: .integer, minimum: 1, maximum: 60, value: .integer(10)),
              ]))], ["Clinics"]),
            ("Field sales", "com.example.profiles.field-sales",
             "The sales app works at head office and the two depots, in the company colours.",
             [.geofence(Geofence(areas: [
                 .init(name: "Head office", latitude: 51.5072, longitude: -0.1276, radiusMeters: 400),
                 .init(name: "North depot", latitude: 53.4808, longitude: -2.2426, radiusMeters: 1500),
                 .init(name: "South depot", latitude: 50.9097, longitude: -1.4044, radiusMeters: 1200),
             ])),
              .branding(Branding(primaryColor: RGBAColor(red: 238, green: 139, blue: 48))),
              .authentication(Authentication(type: .usernamePassword, singleSignOn: true))], ["Field sales"]),
        ]
    }
}
