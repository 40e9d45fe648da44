import App
import CSQLite
import Domain
import Foundation
import NIOCore
import Storage

/// What `payload-console-bench …` measures; see `Benchmarks/README.md`.
enum BenchmarkSupport {
    /// Times the effective-policy computation for one device reached by 20 profiles over five
    /// group levels, every profile carrying several payload kinds. Returns microseconds.
    static func effectivePolicy(iterations: Int) -> (mean: Double, p99: Double) {
        let profiles = (0..<20).map { index in
            var content = ProfileContent(name: "Profile \(index)")
            content = content.setting(Payload(DataLossPrevention(allowCopyPasteOut: index % 3 != 0)))
            content = content.setting(Payload(ASAMAllowlist(appIdentifiers: (0..<10).map { "com.example.app\(($0 + index) % 15)" })))
            content = content.setting(Payload(Geofence(areas: [.init(name: "Site \(index)", latitude: 51, longitude: 0, radiusMeters: 500)])))
            content = content.setting(Payload(Logging(level: LogLevel.allCases[index % 4])))
            if index % 5 == 0 { content = content.setting(Payload(Branding())) }
            return ReachingProfile(source: PolicySource(profileID: Int64(index), profileName: "Profile \(index)", version: 1,
                                                        groupName: "Level \(index % 5)", groupDistance: index % 5), content: content)
        }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        var sink = 0
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let policy = EffectivePolicy.compute(from: profiles)
            let elapsed = ContinuousClock.now - start
            sink &+= policy.warnings.count
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        precondition(sink >= 0)
        samples.sort()
        return (samples.reduce(0, +) / Double(samples.count), samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))])
    }

    /// Fills a database with `profiles` profiles and `devices` devices in five nested groups,
    /// for the page and check-in benchmarks. Every device gets a check-in token; the tokens are
    /// returned so the check-in benchmark can play the devices.
    @discardableResult
    static func seed(databasePath: String, profiles profileCount: Int, devices deviceCount: Int) async throws -> [String] {
        let database = try LogStoreFiles.open(consolePath: databasePath).files.console
        let now = Date()
        let store = ProfileStore(database: database, now: { now })
        let tokens = (0..<deviceCount).map { _ in DeviceTokens.mint() }
        let groups = try await database.write { connection -> [RecordID<DeviceGroupRecord>] in
            var ids: [RecordID<DeviceGroupRecord>] = []
            for level in 0..<5 {
                ids.append(try connection.insert(DeviceGroupRecord(name: "Bench level \(level)", parentID: ids.last, createdAt: now)).id)
            }
            for index in 0..<deviceCount {
                _ = try connection.insert(DeviceRecord(
                    name: String(format: "Bench device %05d", index), model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "BENCH%07d", index), udid: String(format: "%040d", index), isSupervised: true,
                    owner: "", groupID: ids[index % ids.count], installedApps: ["com.example.checkin"], enrolledAt: now, lastCheckInAt: nil,
                    tokenHash: tokens[index].hash))
            }
            return ids
        }
        for index in 0..<profileCount {
            let content = ProfileContent(name: String(format: "Bench profile %04d", index))
                .setting(Payload(DataLossPrevention(allowCopyPasteOut: index % 2 == 0)))
                .setting(Payload(Logging(level: LogLevel.allCases[index % 4])))
            let profile = try await store.create(identifier: "com.example.bench.p\(index)", content: content, by: .system)
            if index < 20 {
                try await database.write { connection in
                    _ = try connection.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: groups[index % groups.count],
                                                                      assignedAt: now, assignedBy: "bench"))
                }
            }
        }
        return tokens.map(\.token)
    }
}
