import Storage

/// Clears the device id of lines whose device is gone: `CatalogService.removeDevice` does it
/// after a removal commits, and this at start-up catches a console stopped in between. One
/// pass over the lines' device index, then one update per device that is gone.
struct LogDeviceReconciliation: Sendable {
    let logs: Database
    let console: Database

    func run() async throws {
        let named = try await logs.read { connection in
            try connection.rows(LogQueries.devicesNamed).map { RecordID<DeviceRecord>(try $0.first(as: Int64.self)) }
        }
        guard !named.isEmpty else { return }
        let existing = Set(try await console.read { connection in
            // In chunks: SQLite takes at most 32,766 bound values a statement.
            try stride(from: 0, to: named.count, by: 10_000).flatMap { start in
                try connection.fetch(DeviceRecord.query().filter("id", in: Array(named[start..<min(start + 10_000, named.count)]))).map(\.id)
            }
        })
        for gone in named where !existing.contains(gone) {
            try await logs.write { try $0.execute(LogQueries.forgetDevice(gone)) }
        }
    }
}
