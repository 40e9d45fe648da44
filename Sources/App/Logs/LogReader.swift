import Storage

/// Uploaded logs as the log pages read them, one snapshot per answer.
struct LogReader: Sendable {
    let database: Database

    /// The lines `query` selects, with the filtered device's name (nil when there is no device
    /// filter or the device is gone) and the catalog's apps by name, for labels.
    func page(_ query: Query<DeviceLogRecord>, device: RecordID<DeviceRecord>?) async throws
        -> (logs: [DeviceLogRecord], deviceName: String?, catalog: [AppRecord]) {
        try await database.read { connection in
            (try connection.fetch(query),
             try device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
             try connection.fetch(AppRecord.query().order(by: "name")))
        }
    }
}
