import Domain
import Foundation
import Mustache

/// The device page's account of a real device's policy: each of the console's profiles with
/// what the device holds and what is on its way, why one is held back or was refused (and when
/// it is tried again), and the managed profiles on the device that the console did not send.
struct MDMPolicyView {
    struct Item {
        let name: String
        let state: String
        let stateClass: String
        let detail: String?
        /// The device holds what its policy says for this profile (or none is wanted).
        var inStep = false
    }

    let items: [Item]
    /// Managed profiles the device listed that are not the console's: shown, never removed.
    let foreign: [MDMDeviceView.Item]

    /// Whether the device holds what its policy says, in words.
    var summary: String {
        if items.isEmpty { return "No policy has reached this device yet." }
        return items.contains { !$0.inStep }
            ? "Out of step: the device does not hold everything its policy says yet." : "In step: the device holds what its policy says."
    }

    /// `commands`: the device's latest commands, which say whether one under way was put off.
    init(_ rows: [MDMDeviceProfileRecord], listed: [MDMInventory.Profile]?, commands: [DeviceCommandRecord] = [], now: Date) {
        let putOff = Dictionary(commands.filter { $0.status == .notNow }.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        items = rows.sorted { $0.identifier < $1.identifier }.map { row in Self.item(row, putOff: row.commandUUID.flatMap { putOff[$0] }, now: now) }
        let ours = Set(DevicePolicyProfiles.identifiers)
        foreign = (listed ?? []).filter { $0.isManaged && !ours.contains($0.identifier) && !$0.identifier.hasPrefix(EnrollmentProfile.identifierPrefix) }
            .map { MDMDeviceView.Item(name: $0.displayName ?? $0.identifier, detail: $0.identifier) }
    }

    private static func item(_ row: MDMDeviceProfileRecord, putOff: DeviceCommandRecord?, now: Date) -> Item {
        let name = MDMPolicyApply.name(of: row.identifier)
        let isConfiguration = DeviceAppConfigurations.app(of: row.identifier) != nil
        let isApp = DeviceAppInstalls.app(of: row.identifier) != nil
        let holdsUnknown = row.installedDigest == MDMPolicyDrift.unknownVersion
        if row.sendingDigest != nil, let putOff {
            let since = putOff.progress.firstNotNowAt.map { " since \(DisplayTime.relative($0, now: now))" } ?? ""
            return Item(name: name, state: "Put off by the device", stateClass: "status-notNow",
                        detail: "It answered Not Now \(Counted.phrase(putOff.progress.notNowCount, "time"))\(since): it is busy (locked, or in the middle "
                            + "of something) and is asked again at its next check-in; nothing else waits for it.")
        }
        if let sending = row.sendingDigest {
            let what = sending == MDMDeviceProfileRecord.removal ? "Being removed"
                : isConfiguration ? "On its way" : (row.installedDigest == nil ? "Being installed" : "A new version is on its way")
            return Item(name: name, state: what, stateClass: "status-queued", detail: row.heldBack ?? row.lastError)
        }
        if let error = row.lastError, row.failedDigest != nil {
            let retry = row.retryAfter.map { $0 > now ? "Tried again \(DisplayTime.relative($0, now: now))." : "Tried again at the next run." } ?? ""
            return Item(name: name, state: "Refused by the device", stateClass: "status-error", detail: "\(error) \(retry)")
        }
        if let reason = row.heldBack {
            let state = row.installedDigest == nil ? "Not sent"
                : holdsUnknown ? "Held back; the device holds a version this console did not send" : "Held back; the device keeps an earlier version"
            return Item(name: name, state: state, stateClass: "status-notNow", detail: reason)
        }
        if holdsUnknown {
            return Item(name: name, state: "The device holds a version this console did not send", stateClass: "status-notNow", detail: nil)
        }
        if isApp, row.installedDigest != nil, row.listedAt == nil {
            return Item(name: name, state: "Accepted; installing", stateClass: "status-queued",
                        detail: "The device took the install; the app counts as installed once the device lists it.")
        }
        if row.installedDigest != nil {
            let state = (isConfiguration ? "Delivered " : "Installed ") + ((isApp ? row.listedAt : row.installedAt).map { DisplayTime.relative($0, now: now) } ?? "")
            return Item(name: name, state: state, stateClass: "status-acknowledged", detail: nil, inStep: true)
        }
        return Item(name: name, state: "Not part of this device's policy", stateClass: "status-none", detail: nil, inStep: true)
    }
}

extension MDMPolicyView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "items": items
        case "hasItems": !items.isEmpty
        case "summary": summary
        case "foreign": foreign
        case "hasForeign": !foreign.isEmpty
        default: nil
        }
    }
}

extension MDMPolicyView.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "state": state
        case "stateClass": stateClass
        case "detail": detail
        default: nil
        }
    }
}
