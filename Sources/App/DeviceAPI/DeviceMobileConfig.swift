import Domain
import Foundation
import Signing

/// The device's effective policy as one `.mobileconfig`, for devices that install profiles
/// rather than read the JSON.
enum DeviceMobileConfig {
    static func xml(udid: String, deviceName: String, policy: DevicePolicy, organisation: String) -> String {
        let payloads = policy.payloads.map { payload in
            ExportedPayload(payload: payload, uuid: stableUUID("\(udid)/\(payload.kind.rawValue)"))
        }
        return MobileConfig.xml(for: ProfileExportInput(
            identifier: "com.payloadconsole.device.\(udid)", uuid: stableUUID(udid),
            displayName: "Policy for \(deviceName)",
            description: "The effective policy of every profile assigned to this device's groups.",
            organization: organisation, payloads: payloads))
    }

    /// The same UUID for the same device and payload every time, so a re-install updates in
    /// place instead of stacking copies.
    static func stableUUID(_ name: String) -> String {
        let hex = Array(SHA256Digest.hex(of: "payload-console:" + name).prefix(32))
        let parts = [hex[0..<8], hex[8..<12], ["4"] + hex[13..<16], ["8"] + hex[17..<20], hex[20..<32]]
        return parts.map { String($0) }.joined(separator: "-").uppercased()
    }
}
