import Domain
import Foundation
import Mustache

/// The device page's MDM card for a real device: its enrollment, whether a push can reach it,
/// and what it last reported about itself.
struct MDMDeviceView {
    struct Fact {
        let label: String
        let value: String
    }

    struct Item {
        let name: String
        let detail: String
    }

    let status: String
    let statusClass: String
    let lastSeen: String
    let lastSeenISO: String?
    let push: String
    let pushIsDead: Bool
    let facts: [Fact]
    let apps: [Item]
    let profiles: [Item]
    let inventoryUpdated: String?
    let policy: MDMPolicyView
    /// The policy's prediction beside what the device reported; nil for a device that left.
    let prediction: MDMPredictionView?
    /// Where an admin lets the enrolled device leave management; nil for others, or once asked.
    let releasePath: String?
    /// That the device was let leave management, and when, in words.
    let leaving: String?

    init(_ enrolled: MDMDeviceRecord, policyProfiles: [MDMDeviceProfileRecord], device: DeviceRecord? = nil, effective: EffectivePolicy? = nil,
         commands: [DeviceCommandRecord] = [], canRelease: Bool = false, now: Date) {
        switch enrolled.state {
        case .enrolled:
            status = "Enrolled over MDM " + DisplayTime.relative(enrolled.enrolledAt, now: now)
            statusClass = "status-acknowledged"
        case .unenrolled:
            status = "Unenrolled: the MDM profile was removed " + (enrolled.checkedOutAt.map { DisplayTime.relative($0, now: now) } ?? "")
            statusClass = "status-error"
        }
        lastSeen = enrolled.lastSeenAt.map { DisplayTime.relative($0, now: now) } ?? "never"
        lastSeenISO = enrolled.lastSeenAt.map(DisplayTime.iso)
        if let dead = enrolled.pushTokenDeadAt {
            push = "Dead since \(DisplayTime.relative(dead, now: now)): Apple's push service said \(enrolled.pushTokenDeadReason ?? "the token is not valid"). The device must check in again to get a new one."
            pushIsDead = true
        } else if let updated = enrolled.tokenUpdatedAt {
            push = "Alive: token given \(DisplayTime.relative(updated, now: now))" + (enrolled.unlockToken == nil ? "" : "; an unlock token is kept for clearing the passcode")
            pushIsDead = false
        } else {
            push = "No push token yet: the device has not sent TokenUpdate, so it cannot be woken"
            pushIsDead = true
        }
        let inventory = enrolled.inventory ?? MDMInventory()
        facts = Self.facts(of: inventory)
        apps = (inventory.apps ?? []).map { Item(name: $0.name ?? $0.identifier, detail: [$0.identifier, $0.version].compactMap { $0 }.joined(separator: " ")) }
        profiles = (inventory.profiles ?? []).map { Item(name: $0.displayName ?? $0.identifier, detail: $0.identifier + ($0.isManaged ? ", managed" : "")) }
        inventoryUpdated = inventory.updatedAt.map { DisplayTime.relative($0, now: now) }
        policy = MDMPolicyView(policyProfiles, listed: inventory.profiles, commands: commands, now: now)
        prediction = enrolled.state == .enrolled ? device.map {
            MDMPredictionView(policy: effective, isSupervised: $0.isSupervised, installedApps: $0.installedApps, inventory: inventory,
                              held: policyProfiles, now: now)
        } : nil
        let isLeaving = enrolled.state == .enrolled && enrolled.releaseRequestedAt != nil
        releasePath = canRelease && enrolled.state == .enrolled && !isLeaving ? Site.Devices.releaseFromMDM.link(enrolled.deviceID) : nil
        leaving = isLeaving ? enrolled.releaseRequestedAt.map {
            "Leaving management since \(DisplayTime.relative($0, now: now)): its policy is no longer followed; it is asked to remove "
                + "the MDM profile (see its commands below), then it checks out."
        } : nil
    }

    private static func facts(of inventory: MDMInventory) -> [Fact] {
        func yesNo(_ flag: Bool?) -> String? { flag.map { $0 ? "Yes" : "No" } }
        func gigabytes(_ value: Double?) -> String? { value.map { String(format: "%.1f GB", $0) } }
        let pairs: [(String, String?)] = [
            ("Model", [inventory.modelName, inventory.productName].compactMap { $0 }.joined(separator: ", ").nilIfEmpty),
            ("iOS", [inventory.osVersion, inventory.buildVersion.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ").nilIfEmpty),
            ("Supervised", yesNo(inventory.isSupervised)),
            ("Storage", inventory.capacityGB.map { capacity in (gigabytes(inventory.availableGB).map { "\($0) free of " } ?? "") + (gigabytes(capacity) ?? "") }),
            ("Battery", inventory.batteryLevel.map { "\(Int(($0 * 100).rounded())) %" }),
            ("Passcode", inventory.passcodePresent.map { present in present ? "Set" + (inventory.passcodeCompliant == false ? ", not compliant" : "") : "Not set" }),
            ("Lost Mode", yesNo(inventory.isLostModeEnabled)),
            ("Activation Lock", yesNo(inventory.isActivationLockEnabled)),
        ]
        return pairs.compactMap { label, value in value.map { Fact(label: label, value: $0) } }
    }
}

extension MDMDeviceView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "status": status
        case "statusClass": statusClass
        case "lastSeen": lastSeen
        case "lastSeenISO": lastSeenISO
        case "push": push
        case "pushIsDead": pushIsDead
        case "facts": facts
        case "hasFacts": !facts.isEmpty
        case "apps": apps
        case "hasApps": !apps.isEmpty
        case "appCount": apps.count
        case "profiles": profiles
        case "hasProfiles": !profiles.isEmpty
        case "profileCount": profiles.count
        case "inventoryUpdated": inventoryUpdated
        case "policy": policy
        case "prediction": prediction
        case "releasePath": releasePath
        case "leaving": leaving
        default: nil
        }
    }
}

extension MDMDeviceView.Fact: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        default: nil
        }
    }
}

extension MDMDeviceView.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "detail": detail
        default: nil
        }
    }
}
