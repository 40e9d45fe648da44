import Domain
import Foundation
import Storage

/// The inventory commands — what the device page shows of a real device — queued when a
/// device enrolls and again daily, never twice while they wait.
struct MDMInventoryRefresh: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    static let commands: [DeviceCommand.RequestType] = [.deviceInformation, .securityInfo, .installedApplicationList, .profileList]
    /// How old a device's inventory may grow before it is asked again.
    static let interval: TimeInterval = 86_400

    /// Queues the inventory for every enrolled device whose inventory is a day old (or that
    /// never answered); answers how many devices were asked.
    func refresh() async throws -> Int {
        let time = now()
        return try await database.write { connection in
            var asked = 0
            for enrolled in try connection.fetch(MDMDeviceRecord.query().filter("state", .equal, MDMDeviceRecord.State.enrolled.rawValue))
            where (enrolled.inventory?.updatedAt).map({ time.timeIntervalSince($0) >= Self.interval }) ?? true {
                if try Self.queue(for: enrolled.deviceID, at: time, connection: connection) { asked += 1 }
            }
            return asked
        }
    }

    /// The inventory commands not already waiting for the device; answers whether any was queued.
    @discardableResult
    static func queue(for deviceID: RecordID<DeviceRecord>, at time: Date, connection: Connection) throws -> Bool {
        let waiting = Set(try connection.fetch(CommandQueue.waiting(for: deviceID)).map(\.requestType))
        let missing = commands.filter { !waiting.contains($0) }
        for type in missing {
            _ = try connection.insert(DeviceCommandRecord(deviceID: deviceID, command: DeviceCommand(requestType: type), queuedAt: time, queuedBy: "Inventory"))
        }
        return !missing.isEmpty
    }
}
