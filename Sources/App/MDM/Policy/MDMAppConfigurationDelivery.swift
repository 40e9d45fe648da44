import Domain
import Foundation
import Storage

/// Where an app's managed configuration stands on real devices, for the app's page: how many
/// enrolled devices have the configuration their policy gives them now, how many wait for it
/// (sent or about to be) and how many refused it.
struct MDMAppConfigurationDelivery: Sendable, Equatable {
    let current: Int
    let waiting: Int
    let refused: Int

    /// Nil when no enrolled device was ever given a configuration for the app.
    static func read(_ bundleID: String, connection: Connection) throws -> MDMAppConfigurationDelivery? {
        struct Counts: Decodable {
            let current: Int?
            let waiting: Int?
            let refused: Int?
        }
        let counts = try connection.fetch(Counts.self, """
            SELECT sum(CASE WHEN p.sendingDigest IS NULL AND p.failedDigest IS NULL AND p.installedDigest IS NOT NULL THEN 1 ELSE 0 END) AS current,
                   sum(CASE WHEN p.sendingDigest IS NOT NULL THEN 1 ELSE 0 END) AS waiting,
                   sum(CASE WHEN p.sendingDigest IS NULL AND p.failedDigest IS NOT NULL THEN 1 ELSE 0 END) AS refused
            FROM mdm_device_profiles p JOIN mdm_devices m ON m.deviceID = p.deviceID
            WHERE m.state = 'enrolled' AND p.identifier = \(DeviceAppConfigurations.identifier(of: bundleID))
            """).first
        let delivery = MDMAppConfigurationDelivery(current: counts?.current ?? 0, waiting: counts?.waiting ?? 0, refused: counts?.refused ?? 0)
        return delivery.current + delivery.waiting + delivery.refused == 0 ? nil : delivery
    }

    /// In words, for the page.
    var summary: String {
        var parts = ["\(Counted.phrase(current, "real device")) \(current == 1 ? "has" : "have") the current configuration"]
        if waiting > 0 { parts.append("\(Counted.phrase(waiting, "device")) \(waiting == 1 ? "waits" : "wait") for it") }
        if refused > 0 { parts.append("\(Counted.phrase(refused, "device")) refused it (its page says why)") }
        return parts.joined(separator: "; ") + "."
    }
}
