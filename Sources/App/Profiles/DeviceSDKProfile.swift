import Domain
import Foundation
import Storage

/// A device's effective SDK policy as the SDK profile an app on it would download: every
/// profile reaching its group combined by the effective-policy rules, the SDK payloads under
/// the SDK's key names (`SDKProfile`), with identifiers stable per device so two downloads of
/// the same policy are the same file.
enum DeviceSDKProfile {
    /// Two Single App Mode payloads reach the device: it keeps whatever it had, and there is no
    /// one policy to export.
    struct Conflict: Error {
        let apps: [String]
    }

    static func json(for device: DeviceRecord, policy effective: EffectivePolicy) throws(Conflict) -> Data {
        guard let policy = DevicePolicy(effective) else {
            throw Conflict(apps: effective.conflictApps)
        }
        return SDKProfile.json(for: ProfileExportInput(
            identifier: "com.payloadconsole.device.\(device.udid).sdk", uuid: DeviceMobileConfig.stableUUID(device.udid + "/sdk"),
            displayName: "SDK policy for \(device.name)", description: "", organization: "",
            payloads: policy.payloads.map { ExportedPayload(payload: $0, uuid: DeviceMobileConfig.stableUUID("\(device.udid)/\($0.kind.rawValue)")) }))
    }

    static func filename(for device: DeviceRecord) -> String {
        "sdk-policy-" + String(device.udid.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }) + ".json"
    }
}
