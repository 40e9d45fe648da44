import Domain
import Foundation
import Mustache

/// A device's compliance and its last status beacon, as the device page shows them. The
/// console learns compliance from the SDK apps' beacons, so a device whose apps never sent
/// one is "Not reported", as its lock is.
struct ComplianceView {
    struct Fact {
        let label: String
        let value: String
    }

    let status: String
    let statusClass: String
    let reason: String?
    let sent: String?
    let sentISO: String?
    let facts: [Fact]

    init(beacon record: DeviceBeaconRecord?, now: Date) {
        guard let record else {
            status = "Not reported"
            statusClass = ""
            reason = "No SDK app on this device has sent its status beacon yet."
            (sent, sentISO, facts) = (nil, nil, [])
            return
        }
        let beacon = record.beacon
        status = beacon.deviceCompliance.displayName
        statusClass = beacon.deviceCompliance == .compliant ? "tag-ok" : "tag-danger"
        reason = beacon.complianceReason
        sent = DisplayTime.relative(record.sentAt, now: now)
        sentISO = DisplayTime.iso(record.sentAt)
        facts = [
            Fact(label: "Device name", value: beacon.deviceName),
            Fact(label: "Organisation group", value: beacon.group ?? "No group"),
            Fact(label: "App", value: "\(beacon.bundleID) \(beacon.appVersion)"),
            Fact(label: "System", value: "\(beacon.osName) \(beacon.osVersion)"),
            Fact(label: "User", value: beacon.user.isEmpty ? "Not recorded" : beacon.user),
            Fact(label: "Enrollment", value: beacon.enrollment.displayName),
            Fact(label: "Compliance", value: beacon.deviceCompliance.displayName),
        ]
    }
}

// On every device page: answered without reflection, as `DevicePage` is.
extension ComplianceView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "status": status
        case "statusClass": statusClass
        case "reason": reason
        case "sent": sent
        case "sentISO": sentISO
        case "facts": facts
        default: nil
        }
    }
}

extension ComplianceView.Fact: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        default: nil
        }
    }
}
