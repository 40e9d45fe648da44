import Foundation
import Domain

/// A preview's impact in sentences for a page: what locks, unlocks or switches app (with the
/// first devices named), which conflicts appear or go, and which settings change — the groups
/// with the same changes on one list.
struct ImpactView {
    struct Line {
        let text: String
        let devices: String
    }

    /// Groups whose settings change the same way, and how, in the payload forms' words.
    struct SettingsChange {
        let groups: String
        let diff: VersionDiff
    }

    let headline: String
    /// How many of the devices reached are real (enrolled over MDM); nil when none is.
    let realDevicesLine: String?
    /// The commands the change queues for real devices, in words.
    let mdmLines: [String]
    let hasMDMLines: Bool
    let changesNothing: Bool
    let lockLines: [Line]
    /// What the SDK in the devices' apps starts or stops doing, judged from what each device
    /// last reported; and where that cannot be judged.
    let sdkLines: [Line]
    let notKnownLines: [Line]
    let hasSDKLines: Bool
    let conflicts: [String]
    /// A conflict appears: the confirm button warns and says so.
    let hasConflicts: Bool
    let resolved: [String]
    /// Profiles that now lock the same devices to the same app: merged, said so.
    let sharedLocks: [String]
    let settings: [SettingsChange]
    let hasSettings: Bool

    /// How many devices a line names before "and N more".
    static let named = 5

    init(_ impact: PolicyImpact, appNames: [String: String]) {
        func app(_ bundleID: String?) -> String { bundleID.map { appNames[$0] ?? $0 } ?? "" }
        func devices(_ count: Int) -> String { count == 1 ? "1 device" : "\(count.formatted()) devices" }
        func names(_ devices: [String]) -> String {
            let shown = devices.prefix(Self.named).joined(separator: ", ")
            return devices.count > Self.named ? "\(shown) and \(devices.count - Self.named) more" : shown
        }
        func names(_ changes: [PolicyImpact.LockChange]) -> String { names(changes.map(\.device)) }
        let groupCount = impact.groups.count
        // Devices a new conflict freezes do not change: they keep their current policy.
        let frozen = impact.groups.filter { !$0.newConflict.isEmpty }.reduce(0) { $0 + $1.deviceCount }
        let changing = impact.devicesChanged - frozen
        let reach = "Reaches \(devices(impact.devicesReached)) in \(groupCount == 1 ? "1 group" : "\(groupCount) groups"); "
        headline = impact.devicesReached == 0 ? "This change reaches no device: the groups it touches hold none."
            : frozen == 0 ? reach + (changing == 0 ? "none of them changes." : "\(devices(changing)) change.")
            : changing == 0 ? reach + "none of them changes: a Single App Mode conflict keeps \(frozen == impact.devicesReached ? "them" : devices(frozen)) on their current policy."
            : reach + "\(devices(changing)) change; \(devices(frozen)) keep their current policy (a Single App Mode conflict)."
        let real = impact.realDevicesReached
        let simulated = impact.devicesReached - real
        realDevicesLine = real == 0 ? nil
            : simulated == 0 ? (real == 1 ? "It is a real device enrolled over MDM." : "All of them are real devices enrolled over MDM.")
            : "\(real.formatted()) of them \(real == 1 ? "is a real device" : "are real devices") enrolled over MDM; \(devices(simulated)) simulated or added by hand."
        mdmLines = impact.mdmCommands.map { "\($0.requestType.displayName) “\($0.profile)” queued for \(devices($0.devices))" }
        hasMDMLines = !mdmLines.isEmpty
        changesNothing = impact.changesNothing
        var lines: [Line] = []
        for (target, changes) in Dictionary(grouping: impact.locking, by: { $0.after ?? "" }).sorted(by: { $0.key < $1.key }) {
            lines.append(Line(text: "\(devices(changes.count)) lock into \(app(target)) (Single App Mode)", devices: names(changes)))
        }
        for (source, changes) in Dictionary(grouping: impact.unlocking, by: { $0.before ?? "" }).sorted(by: { $0.key < $1.key }) {
            lines.append(Line(text: "\(devices(changes.count)) unlock, leaving \(app(source))", devices: names(changes)))
        }
        for (_, changes) in Dictionary(grouping: impact.switching, by: { "\($0.before ?? "")→\($0.after ?? "")" }).sorted(by: { $0.key < $1.key }) {
            let first = changes[0]
            lines.append(Line(text: "\(devices(changes.count)) switch from \(app(first.before)) to \(app(first.after))", devices: names(changes)))
        }
        lockLines = lines
        var sdk: [Line] = [], notKnown: [Line] = []
        var grouped: [(finding: SDKFinding, starts: Bool, devices: [String])] = []
        for change in impact.sdkChanges {
            if let index = grouped.firstIndex(where: { $0.finding == change.finding && $0.starts == change.starts }) {
                grouped[index].devices.append(change.device)
            } else {
                grouped.append((change.finding, change.starts, [change.device]))
            }
        }
        for entry in grouped {
            let sentence = entry.finding.sentence { app($0) }
            let line = Line(text: entry.starts ? "\(devices(entry.devices.count)): \(sentence)"
                                : "\(devices(entry.devices.count)) no longer: \(sentence)", devices: names(entry.devices))
            if entry.finding.effect == "not-known" { if entry.starts { notKnown.append(line) } } else { sdk.append(line) }
        }
        sdkLines = sdk
        notKnownLines = notKnown
        hasSDKLines = !sdk.isEmpty || !notKnown.isEmpty
        conflicts = impact.groups.filter { !$0.newConflict.isEmpty }.map { group in
            "New conflict in \(group.name): \(group.newConflict.map { app($0) }.joined(separator: " and ")) both ask for Single App Mode. "
                + "Its \(devices(group.deviceCount)) keep their current policy until one of them goes."
        }
        hasConflicts = !conflicts.isEmpty
        sharedLocks = impact.groups.compactMap { group in
            group.sharedLock.map { shared in
                let names = shared.profiles.dropLast().joined(separator: ", ") + " and " + (shared.profiles.last ?? "")
                return "In \(group.name), \(names) lock to \(app(shared.app)) alike: one lock, no conflict, with \(shared.profiles[0])’s options "
                    + "(the nearest group’s, the oldest profile first)."
            }
        }
        resolved = impact.groups.filter { !$0.resolvedConflict.isEmpty }.map { group in
            "Ends the conflict in \(group.name) (\(group.resolvedConflict.map { app($0) }.joined(separator: " and "))): its \(devices(group.deviceCount)) take the policy again."
        }
        var merged: [(groups: [String], deviceCount: Int, before: ProfileContent, after: ProfileContent)] = []
        for group in impact.groups where !group.changes.isEmpty {
            if let index = merged.firstIndex(where: { $0.before == group.policyBefore && $0.after == group.policyAfter }) {
                merged[index].groups.append(group.name)
                merged[index].deviceCount += group.deviceCount
            } else {
                merged.append(([group.name], group.deviceCount, group.policyBefore, group.policyAfter))
            }
        }
        settings = merged.map { entry in
            SettingsChange(groups: "\(entry.groups.joined(separator: ", ")) (\(devices(entry.deviceCount)))",
                           diff: VersionDiff(from: entry.before, to: entry.after, headings: ("Now", "After")))
        }
        hasSettings = !settings.isEmpty
    }
}
