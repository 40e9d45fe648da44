import Domain
import Foundation
import Storage

/// What the console knows of devices for the SDK's rules, as each last reported it: a
/// simulated device's own state (it knows everything about itself); for other devices their
/// record (iOS version, installed apps), their last status beacon (iOS and the sending app's
/// version) and, for an app no beacon named, the version on its newest log lines. Jailbreak,
/// location and network are reported by simulated devices only, so they stay not known for
/// the rest.
enum DeviceReports {
    struct Device {
        let id: Int64
        let osVersion: String
        let installedApps: [String]
    }

    /// How far back a device's log lines are searched for an app's version: the newest lines
    /// say what runs now, and the read stays bounded on a device with a long history.
    static let logLinesSearched = 2_000

    /// For each device, the apps whose versions to read from its log lines: asked once for
    /// every device, because the lines are in the log store's file (`LoggedVersions.read`).
    typealias LoggedVersionLookup = ([Int64: [String]]) throws -> [Int64: [String: String]]

    /// `ruleApps` are the apps compliance rules compare on either side of a change: only their
    /// versions are looked up in logs.
    static func conditions(of devices: [Device], ruleApps: Set<String>, in connection: Connection,
                           loggedVersions: LoggedVersionLookup) throws -> [Int64: DeviceConditions] {
        guard !devices.isEmpty else { return [:] }
        let ids = devices.map(\.id)
        let sdkApps = Set(try connection.fetch(AppRecord.query().filter("isSDKBuilt", .equal, true)).map(\.bundleID))
        let simulated = Dictionary(try connection.fetch(SimulatorStateRecord.query().filter("deviceID", in: ids)).map { ($0.deviceID.rawValue, $0.state) },
                                   uniquingKeysWith: { first, _ in first })
        let beacons = Dictionary(try connection.fetch(DeviceBeaconRecord.query().filter("deviceID", in: ids)).map { ($0.deviceID.rawValue, $0.beacon) },
                                 uniquingKeysWith: { first, _ in first })
        // What each device's beacon said, and which rule apps it left unsaid.
        var known: [Int64: (sdkApps: [String], versions: [String: String], beacon: StatusBeacon?)] = [:]
        var unreported: [Int64: [String]] = [:]
        var answer: [Int64: DeviceConditions] = [:]
        for device in devices {
            if let state = simulated[device.id] {
                answer[device.id] = state.conditions
                continue
            }
            // The SDK's rules act on SDK apps only: a device without one has nothing to judge.
            let deviceSDKApps = device.installedApps.filter(sdkApps.contains)
            guard !deviceSDKApps.isEmpty else { continue }
            let beacon = beacons[device.id]
            var versions: [String: String] = [:]
            if let beacon, !beacon.appVersion.isEmpty { versions[beacon.bundleID] = beacon.appVersion }
            let missing = ruleApps.sorted().filter { versions[$0] == nil && device.installedApps.contains($0) }
            if !missing.isEmpty { unreported[device.id] = missing }
            known[device.id] = (deviceSDKApps, versions, beacon)
        }
        let logged = unreported.isEmpty ? [:] : try loggedVersions(unreported)
        for device in devices {
            guard let (deviceSDKApps, beaconVersions, beacon) = known[device.id] else { continue }
            let versions = beaconVersions.merging(logged[device.id] ?? [:]) { beaconSaid, _ in beaconSaid }
            let osVersion = beacon.map(\.osVersion).flatMap { $0.isEmpty ? nil : $0 } ?? (device.osVersion.isEmpty ? nil : device.osVersion)
            answer[device.id] = DeviceConditions(osVersion: osVersion, installedApps: device.installedApps,
                                                 sdkApps: deviceSDKApps, appVersions: versions,
                                                 isJailbroken: nil, location: nil, network: nil)
        }
        return answer
    }

    /// Reads, for each device, the version on the newest of its recent log lines from each of
    /// the apps asked for, in one read of the log store.
    static func loggedVersions(_ requests: [Int64: [String]], in logs: Connection) throws -> [Int64: [String: String]] {
        Dictionary(uniqueKeysWithValues: try requests.map { device, apps in (device, try loggedVersions(of: apps, on: device, in: logs)) })
    }

    private struct LoggedVersion: Decodable {
        let app: String
        let appVersion: String
    }

    /// For each of `apps`, the version on the newest of the device's recent log lines from it
    /// that carries one: one read of those lines for every app.
    private static func loggedVersions(of apps: [String], on deviceID: Int64, in connection: Connection) throws -> [String: String] {
        guard !apps.isEmpty else { return [:] }
        let rows = try connection.fetch(LoggedVersion.self, """
            SELECT app, appVersion FROM (SELECT id, app, appVersion FROM device_logs WHERE deviceID = \(deviceID) ORDER BY id DESC LIMIT \(logLinesSearched)) AS recent
            WHERE app IN (\(list: apps)) AND appVersion <> '' ORDER BY id DESC
            """)
        return Dictionary(rows.map { ($0.app, $0.appVersion) }, uniquingKeysWith: { newest, _ in newest })
    }
}
