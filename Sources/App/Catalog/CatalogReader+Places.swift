import Domain
import Foundation
import Storage

/// Where devices were, for helpdesk's geofence question: the fence each device gets, and the
/// place a device's newest log lines name.
extension CatalogReader {
    /// The geofence each of these devices gets, for log lines that say where a device was:
    /// one read, each group's policy worked out once; a device without one is left out.
    func geofences(of ids: Set<RecordID<DeviceRecord>>) async throws -> [RecordID<DeviceRecord>: Geofence] {
        guard !ids.isEmpty else { return [:] }
        return try await database.read { connection in
            let devices = try connection.fetch(DeviceRecord.query().filter("id", in: Array(ids)))
            let loader = PolicyLoader(connection: connection, cache: profileContents)
            var byGroup: [RecordID<DeviceGroupRecord>: Geofence?] = [:]
            var fences: [RecordID<DeviceRecord>: Geofence] = [:]
            for device in devices {
                guard let group = device.groupID else { continue }
                if byGroup[group] == nil { byGroup[group] = try loader.effectivePolicy(group: group)[Geofence.self]?.value }
                if let fence = byGroup[group] ?? nil { fences[device.id] = fence }
            }
            return fences
        }
    }

    /// How many of a device's newest lines the list looks through for the place it last named.
    static let placeLinesSearched = 20

    private struct PlacedLine: Decodable {
        let deviceID: Int64
        let message: String
    }

    /// Where each of these devices' newest lines put it — the newest of its last few lines that
    /// names a place — in one read of the log store; a device whose lines name none is left out.
    func newestPlaces(of ids: [RecordID<DeviceRecord>]) async throws -> [RecordID<DeviceRecord>: GeoPoint] {
        guard !ids.isEmpty else { return [:] }
        let lines = try await logs.read { connection in
            try connection.fetch(PlacedLine.self, """
                SELECT deviceID, message FROM (
                  SELECT deviceID, message, id, row_number() OVER (PARTITION BY deviceID ORDER BY loggedAt DESC, id DESC) AS n
                  FROM device_logs WHERE deviceID IN (\(list: ids.map(\.rawValue)))) AS recent
                WHERE n <= \(Self.placeLinesSearched) ORDER BY deviceID, n
                """)
        }
        var places: [RecordID<DeviceRecord>: GeoPoint] = [:]
        for line in lines {
            let id = RecordID<DeviceRecord>(line.deviceID)
            guard places[id] == nil, let point = GeoPoint.firstMentioned(in: line.message) else { continue }
            places[id] = point
        }
        return places
    }
}
