import Domain
import Foundation
import Markdown
import Mustache
import Storage

/// The device page as the template shows it: the device and its status (lock and why), its
/// effective policy and commands; and for those who read logs, the helpdesk workspace —
/// storage warnings, the newest log lines (new ones arrive while the page is open), each
/// app's latest feedback, and notes.
struct DevicePage {
    /// A note as typed, kept with its message when it was refused.
    struct NoteDraft {
        var body: String
        var error: String?
    }

    struct Note {
        let author: String
        let written: String
        let writtenISO: String
        let edited: Bool
        let html: String
        let editPath: String?
        let deletePath: String?
    }

    struct Feedback {
        let appName: String
        let bundleID: String
        let fetched: String
        let fetchedISO: String
        let wasReset: Bool
        let values: [FeedbackValue]
        let historyPath: String
    }

    struct FeedbackValue {
        let key: String
        let value: String
    }

    let id: RecordID<DeviceRecord>
    let device: DeviceRecord
    let groupLineage: String?
    let apps: [AppsController.Row]
    let unknownApps: [String]
    let enrolled: String
    let checkIn: CheckInView
    let canEdit: Bool
    let policy: PolicyView?
    let commands: DeviceCommandsView
    /// What the policy makes the device do about its lock, and what it last reported.
    let policyLock: LockExplanation
    let lock: LockExplanation
    let compliance: ComplianceView
    /// A real device's MDM card; nil for devices the simulator plays or added by hand.
    let mdm: MDMDeviceView?
    let canReadLogs: Bool
    let capWarnings: [String]
    let recentLogsHTML: String
    let hasRecentLogs: Bool
    /// The last line that arrived, so the page asks only for lines after it.
    let newestLogID: String
    let feedback: [Feedback]
    let notes: [Note]
    let note: NoteDraft
    /// "Am I outside the geofence?" for those who read logs; nil when no geofence reaches the device.
    let geofenceCheck: GeofenceCheckView?

    init(_ overview: CatalogReader.DeviceOverview, principal: Principal, now: Date, commandForm: CommandForm, note: NoteDraft?,
         geofenceQuestion: (latitude: String, longitude: String) = ("", "")) {
        let device = overview.device
        let user = principal.user
        id = device.id
        self.device = device
        let names = Dictionary(uniqueKeysWithValues: overview.groups.map { ($0.id, $0.name) })
        let lineage = device.groupID.map { GroupTree(overview.groups).lineage(of: $0).compactMap { names[$0] }.joined(separator: " › inside ") } ?? ""
        groupLineage = lineage.isEmpty ? nil : lineage
        let catalog = overview.apps.byBundleID
        apps = device.installedApps.compactMap { catalog[$0].map(AppsController.row) }
        unknownApps = device.installedApps.filter { catalog[$0] == nil }
        enrolled = DisplayTime.relative(device.enrolledAt, now: now)
        let interval = overview.checkInIntervalMinutes
        // A device the simulator runs, or one without a check-in token (added by hand), is
        // answered by its simulator; a device with a token, or enrolled over MDM, checks in by itself.
        let answeredBySimulator = overview.mdm == nil && (overview.simulator != nil || device.tokenHash == nil)
        checkIn = CheckInView(CheckInExpectation.of(lastCheckIn: device.lastCheckInAt, answeredBySimulator: answeredBySimulator,
                                                    interval: TimeInterval(interval * 60), now: now),
                              lastCheckIn: device.lastCheckInAt, intervalMinutes: interval, now: now)
        canEdit = user.role.includes(.admin)
        let effective = overview.reaching.map { EffectivePolicy.compute(from: $0) }
        policy = effective.map(PolicyView.init)
        // A real device that removed its MDM profile takes nothing: no form, nothing to cancel.
        commands = DeviceCommandsView(deviceID: id, commands: overview.commands, role: overview.mdm?.state == .unenrolled ? nil : user.role, now: now, back: Site.Devices.show.link(id), form: commandForm,
                                      target: CommandDraft.Target(name: device.name, overMDM: overview.mdm?.state == .enrolled,
                                                                  isSupervised: device.isSupervised, osVersion: device.osVersion))
        let appName = { (bundleID: String) in catalog[bundleID]?.name ?? bundleID }
        policyLock = LockExplanation.policy(PolicyLock.of(effective, isSupervised: device.isSupervised, installedApps: device.installedApps), appName: appName)
        lock = LockExplanation.reported(overview.simulator?.state, policy: effective, appName: appName)
        compliance = ComplianceView(beacon: overview.beacon, now: now)
        mdm = overview.mdm.map { MDMDeviceView($0, policyProfiles: overview.mdmProfiles, device: device, effective: effective,
                                               commands: overview.commands, canRelease: user.role.includes(.admin), now: now) }
        canReadLogs = overview.workspace != nil
        let workspace = overview.workspace
        capWarnings = (workspace?.capWarnings ?? []).map { $0.message(appName: catalog[$0.app]?.name ?? $0.app) }
        let fence = effective?[Geofence.self]?.value
        recentLogsHTML = (workspace?.recentLogs ?? []).map {
            LogRowHTML.row($0, appName: catalog[$0.line.app]?.name, selectable: false, showDevice: false, geofence: fence)
        }.joined()
        hasRecentLogs = !(workspace?.recentLogs ?? []).isEmpty
        newestLogID = workspace?.lastArrivedLine.map(String.init) ?? "0"
        feedback = (workspace?.latestFeedback ?? []).map { report in
            Feedback(appName: catalog[report.app]?.name ?? report.app, bundleID: report.app,
                     fetched: DisplayTime.relative(report.fetchedAt, now: now), fetchedISO: DisplayTime.iso(report.fetchedAt),
                     wasReset: report.wasReset,
                     values: report.feedback.sorted { $0.key < $1.key }.map { FeedbackValue(key: $0.key, value: FeedbackText.display($0.value)) },
                     historyPath: Site.Devices.feedback(on: device.id, app: report.app))
        }
        notes = (workspace?.notes ?? []).map { stored in
            let changeable = NoteStore.mayChange(stored, by: principal)
            return Note(author: stored.authorEmail, written: DisplayTime.relative(stored.createdAt, now: now), writtenISO: DisplayTime.iso(stored.createdAt),
                        edited: stored.updatedAt > stored.createdAt, html: MarkdownRenderer.html(stored.body),
                        editPath: changeable ? Site.Devices.editNote.link(device.id, stored.id) : nil,
                        deletePath: changeable ? Site.Devices.removeNote.link(device.id, stored.id) : nil)
        }
        self.note = note ?? NoteDraft(body: "")
        geofenceCheck = workspace == nil ? nil
            : GeofenceCheckView(fence: fence, recentLogs: workspace?.recentLogs ?? [],
                                simulatorLocation: overview.simulator?.state.location, asked: geofenceQuestion, now: now)
    }
}

/// Feedback values as a person reads them.
enum FeedbackText {
    static func display(_ value: JSONValue) -> String {
        switch value {
        case .number(let number): NumberText.plain(number)
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): text
        case .null: "—"
        case .array, .object: "(nested value)"
        }
    }
}

// The device page is a hot page (helpdesk opens it for every call), so its model answers the
// template engine directly rather than through reflection.
extension DevicePage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "simulatorPath": Site.Simulator.show.link(id)
        case "devicePath": Site.Devices.show.link(id)
        case "sdkProfilePath": Site.Devices.sdkProfile.link(id)
        case "logsPath": Site.Logs.index(of: id)
        case "crashGroupsPath": Site.Logs.crashGroups(device: id)
        case "editPath": Site.Devices.edit.link(id)
        case "deletePath": Site.Devices.remove.link(id)
        case "notesPath": Site.Devices.addNote.link(id)
        case "livePath": Site.Devices.live.link(id)
        case "eventsPath": Site.Devices.events.link(id)
        case "name": device.name
        case "model": device.model.rawValue
        case "osVersion": device.osVersion
        case "serialNumber": device.serialNumber
        case "udid": device.udid
        case "supervised": device.isSupervised
        case "owner": device.owner.isEmpty ? nil : device.owner
        case "groupLineage": groupLineage
        case "apps": apps
        case "unknownApps": unknownApps
        case "enrolled": enrolled
        case "lastCheckIn": checkIn.last
        case "lastCheckInISO": checkIn.lastISO
        case "nextCheckIn": checkIn.next
        case "checkInOverdue": checkIn.isOverdue
        case "answersInSimulator": checkIn.answersInSimulator
        case "canEdit": canEdit
        case "policy": policy
        case "commands": commands
        case "policyLockStatus": policyLock.status
        case "policyLockReason": policyLock.reason
        case "lockStatus": lock.status
        case "lockReason": lock.reason
        case "compliance": compliance
        case "mdm": mdm
        case "canReadLogs": canReadLogs
        case "capWarnings": capWarnings
        case "recentLogsHTML": recentLogsHTML
        case "hasRecentLogs": hasRecentLogs
        case "newestLogID": newestLogID
        case "feedback": feedback
        case "hasFeedback": !feedback.isEmpty
        case "notes": notes
        case "hasNotes": !notes.isEmpty
        case "noteBody": note.body
        case "noteError": note.error
        case "geofenceCheck": geofenceCheck
        default: nil
        }
    }
}

extension DevicePage.Feedback: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "appName": appName
        case "bundleID": bundleID
        case "fetched": fetched
        case "fetchedISO": fetchedISO
        case "wasReset": wasReset
        case "values": values
        case "historyPath": historyPath
        default: nil
        }
    }
}

extension DevicePage.FeedbackValue: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "key": key
        case "value": value
        default: nil
        }
    }
}

extension DevicePage.Note: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "author": author
        case "written": written
        case "writtenISO": writtenISO
        case "edited": edited
        case "html": html
        case "editPath": editPath
        case "deletePath": deletePath
        default: nil
        }
    }
}
