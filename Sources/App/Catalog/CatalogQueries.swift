import Storage

/// The catalog's SQL that the query builder cannot say, in one place: like the storage layer,
/// this is what a second database backend would have to provide again.
enum CatalogQueries {
    /// Keyset pagination over (name, id): the page after a device starts right after it in
    /// name order, so page 200 costs what page 1 does. (Row values and `COLLATE NOCASE`.)
    static func devicePage(group: RecordID<DeviceGroupRecord>?, after: RecordID<DeviceRecord>?, limit: Int) -> SQL {
        var sql: SQL = "SELECT * FROM devices WHERE 1"
        if let group { sql.append(" AND groupID = \(group)") }
        if let after {
            sql.append(" AND (name COLLATE NOCASE, id) > ((SELECT name FROM devices WHERE id = \(after)), \(after))")
        }
        sql.append(" ORDER BY name COLLATE NOCASE, id LIMIT \(limit)")
        return sql
    }

    struct GroupCount: Decodable {
        let groupID: Int64
        let devices: Int
    }

    /// How many devices each group holds directly.
    static let deviceCountsByGroup: SQL = "SELECT groupID, count(*) AS devices FROM devices WHERE groupID IS NOT NULL GROUP BY groupID"
}
