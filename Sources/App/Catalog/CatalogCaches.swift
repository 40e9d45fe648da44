import Storage

/// What every device page reads whole and admins change rarely, kept in memory until a change
/// to its table commits (`TableCache`; on PostgreSQL also another console's change, moments
/// later): the groups, the app catalog and the console's settings. On PostgreSQL each was a
/// round trip of its own on every device page.
struct CatalogCaches: Sendable {
    /// By name.
    let groups: TableCache<[DeviceGroupRecord]>
    /// By name, then id.
    let apps: TableCache<[AppRecord]>
    let settings: TableCache<ConsoleSettings>

    init(database: Database) {
        groups = TableCache(database, tables: [DeviceGroupRecord.tableName]) { try $0.fetch(DeviceGroupRecord.query().order(by: "name")) }
        apps = TableCache(database, tables: [AppRecord.tableName]) { try $0.fetch(AppRecord.query().order(by: "name").order(by: "id")) }
        settings = TableCache(database, tables: [ConsoleSettings.tableName]) { try ConsoleSettings.load(from: $0) }
    }
}
