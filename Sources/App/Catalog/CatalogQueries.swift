import Domain
import Foundation
import Storage

/// The catalog's SQL that the query builder cannot say, in one place: like the storage layer,
/// this is what a second database backend would have to provide again.
enum CatalogQueries {
    struct GroupCount: Decodable {
        let groupID: Int64
        let devices: Int
    }

    /// How many devices each group holds directly.
    static let deviceCountsByGroup: SQL = "SELECT groupID, count(*) AS devices FROM devices WHERE groupID IS NOT NULL GROUP BY groupID"

    /// What the device list needs to know beyond the filter: the groups a group filter stands
    /// for (with its subgroups), the groups whose policy has a Single App Mode conflict, and
    /// the time before which a device counts as not checked in.
    struct DeviceListScope: Sendable {
        var groups: Set<RecordID<DeviceGroupRecord>>?
        var conflictGroups: Set<RecordID<DeviceGroupRecord>> = []
        var staleBefore: Date?

        init() {}

        /// The scope of `filter` among `groups`, whose policies say which are in conflict.
        init(_ filter: DeviceListFilter, groups: [DeviceGroupRecord],
             policies: [RecordID<DeviceGroupRecord>: CatalogReader.GroupPolicySummary], now: Date) {
            if let group = filter.group { self.groups = GroupTree(groups).subtree(of: group, among: groups.map { $0.id }) }
            conflictGroups = Set(policies.filter { !$0.value.conflictApps.isEmpty }.keys)
            staleBefore = filter.notCheckedInDays.map { now.addingTimeInterval(-Double($0) * 86_400) }
        }
    }

    /// A device on the list with its simulator's lock (mode code and app), if it has one, the
    /// compliance its last status beacon reported, and its MDM enrollment if it is a real device.
    static func deviceListColumns(_ dialect: Dialect) -> String {
        let lockApp = dialect == .sqlite ? "json_extract(s.state, '$.lock.' || s.lockMode || '.app')" : "s.state -> 'lock' -> s.lockMode ->> 'app'"
        return """
            d.*, s.id IS NOT NULL AS simulated, s.lockMode AS lockMode, \(lockApp) AS lockApp,
            (SELECT compliance FROM device_beacons WHERE deviceID = d.id) AS compliance,
            (SELECT state FROM mdm_devices WHERE deviceID = d.id) AS mdmState
            """
    }

    /// One page of the device list: `limit` devices in the filter's order after its `after`
    /// device (keyset: the sort key of that device is read back, so page 200 costs what page 1
    /// does). The search is `DeviceSearch`: the trigram index, or for one or two characters a
    /// prefix range on each indexed column.
    static func deviceList(_ filter: DeviceListFilter, scope: DeviceListScope, limit: Int, dialect: Dialect = .sqlite) -> SQL {
        var sql = SQL(stringLiteral: "SELECT \(deviceListColumns(dialect)) FROM devices AS d LEFT JOIN simulator_states AS s ON s.deviceID = d.id WHERE TRUE")
        appendConditions(filter, scope: scope, dialect: dialect, to: &sql)
        let keys = sortKeys(filter.sort, dialect)
        let comparison = filter.descending ? "<" : ">"
        if let after = filter.after {
            let row = keys.map { $0("d") }.joined(separator: ", ")
            let anchor = keys.map { key in "(SELECT \(key("x")) FROM devices AS x WHERE x.id = " }
            var condition = SQL(stringLiteral: " AND (\(row), d.id) \(comparison) (")
            for part in anchor {
                condition.append(SQL(stringLiteral: part))
                condition.append("\(after)), ")
            }
            condition.append("\(after))")
            sql.append(condition)
        }
        let direction = filter.descending ? " DESC" : ""
        sql.append(SQL(stringLiteral: " ORDER BY " + (keys.map { $0("d") } + ["d.id"]).map { $0 + direction }.joined(separator: ", ")))
        sql.append(" LIMIT \(limit)")
        return sql
    }

    static func deviceCount(_ filter: DeviceListFilter, scope: DeviceListScope, dialect: Dialect = .sqlite) -> SQL {
        var sql: SQL = "SELECT count(*) FROM devices AS d LEFT JOIN simulator_states AS s ON s.deviceID = d.id WHERE TRUE"
        appendConditions(filter, scope: scope, dialect: dialect, to: &sql)
        return sql
    }

    /// The ids of every device the filter finds, at most `limit`: a bulk action on them all.
    static func deviceIDs(_ filter: DeviceListFilter, scope: DeviceListScope, limit: Int, dialect: Dialect = .sqlite) -> SQL {
        var sql: SQL = "SELECT d.id FROM devices AS d LEFT JOIN simulator_states AS s ON s.deviceID = d.id WHERE TRUE"
        appendConditions(filter, scope: scope, dialect: dialect, to: &sql)
        sql.append(" ORDER BY d.id LIMIT \(limit)")
        return sql
    }

    /// A device with its simulator's state, its last status beacon and its MDM state, each a
    /// part of the row (`Row.part`; nil parts when it has none): the device page's one-row
    /// reads as one statement. Each table holds at most one row per device.
    static func deviceWithSides(_ id: RecordID<DeviceRecord>) -> SQL {
        """
        SELECT d.*, NULL AS __simulator, s.*, NULL AS __beacon, b.*, NULL AS __mdm, m.* FROM devices AS d
        LEFT JOIN simulator_states AS s ON s.deviceID = d.id
        LEFT JOIN device_beacons AS b ON b.deviceID = d.id
        LEFT JOIN mdm_devices AS m ON m.deviceID = d.id
        WHERE d.id = \(id)
        """
    }

    static let osVersions: SQL = "SELECT DISTINCT osVersion FROM devices"

    /// The columns a sort orders by before the id, written for a table alias.
    private static func sortKeys(_ sort: DeviceListFilter.Sort, _ dialect: Dialect) -> [(String) -> String] {
        // PostgreSQL has no NOCASE: its indexes are on lower(name).
        let name: (String) -> String = dialect == .sqlite ? { "\($0).name COLLATE NOCASE" } : { "lower(\($0).name)" }
        let never = dialect == .sqlite ? "0" : "'-infinity'::timestamptz"
        switch sort {
        case .name: return [name]
        case .model: return [{ "\($0).model" }, name]
        case .checkIn: return [{ "coalesce(\($0).lastCheckInAt, \(never))" }]
        }
    }

    private static func appendConditions(_ filter: DeviceListFilter, scope: DeviceListScope, dialect: Dialect, to sql: inout SQL) {
        switch (DeviceSearch(filter.search), dialect) {
        case (.everything, _):
            break
        case (.start(let folded), .postgres):
            sql.append(textSearch(LikePattern.escaped(folded) + "%"))
        case (.inside(let folded), .postgres):
            // The trigram indexes on the folded columns answer a LIKE with the text inside.
            sql.append(textSearch("%" + LikePattern.escaped(folded) + "%"))
        case (let search, .sqlite):
            appendSQLiteSearch(search, to: &sql)
        }
        appendFilters(filter, scope: scope, to: &sql)
    }

    /// Devices whose name, owner, serial or UDID matches `pattern` (folded), on PostgreSQL.
    /// Serial numbers and UDIDs are upper-case ASCII, which `lower` folds as the rule does.
    private static func textSearch(_ pattern: String) -> SQL {
        " AND (d.foldedName LIKE \(pattern) ESCAPE '\\' OR d.foldedOwner LIKE \(pattern) ESCAPE '\\'"
            + " OR lower(d.serialNumber) LIKE \(pattern) ESCAPE '\\' OR lower(d.udid) LIKE \(pattern) ESCAPE '\\')"
    }

    private static func appendSQLiteSearch(_ search: DeviceSearch, to sql: inout SQL) {
        switch search {
        case .everything:
            break
        case .start(let folded):
            // Too short for trigrams: the start of each field, a range on its own index, which
            // SQLite unions. U+10FFFF sorts after every character, so [text, text + U+10FFFF)
            // holds exactly the values starting with text.
            let foldedEnd = folded + "\u{10FFFF}"
            let upper = folded.asciiUppercased, upperEnd = folded.asciiUppercased + "\u{10FFFF}"
            sql.append("""
                 AND (d.foldedName >= \(folded) AND d.foldedName < \(foldedEnd)
                   OR d.foldedOwner >= \(folded) AND d.foldedOwner < \(foldedEnd)
                   OR d.serialNumber >= \(upper) AND d.serialNumber < \(upperEnd)
                   OR d.udid >= \(upper) AND d.udid < \(upperEnd))
                """)
        case .inside(let folded):
            // Anywhere inside a field: the trigram index answers the matching ids.
            sql.append(" AND d.id IN (SELECT rowid FROM device_search WHERE device_search MATCH \(DeviceSearch.trigramExpression(folded)))")
        }
    }

    private static func appendFilters(_ filter: DeviceListFilter, scope: DeviceListScope, to sql: inout SQL) {
        if let groups = scope.groups { sql.append(" AND d.groupID IN (\(list: groups.sorted { $0.rawValue < $1.rawValue }))") }
        if let model = filter.model { sql.append(" AND d.model = \(model.rawValue)") }
        if let version = filter.osVersion { sql.append(" AND (d.osVersion = \(version) OR d.osVersion LIKE \(version + ".%"))") }
        if let supervised = filter.supervised { sql.append(" AND d.isSupervised = \(supervised)") }
        switch filter.lock {
        case nil: break
        case .unlocked?: sql.append(" AND s.id IS NOT NULL AND s.lockMode IS NULL")
        case let mode?: sql.append(" AND s.lockMode = \(mode.rawValue)")
        }
        if filter.conflictOnly { sql.append(" AND d.groupID IN (\(list: scope.conflictGroups.sorted { $0.rawValue < $1.rawValue }))") }
        if filter.waitingOnly {
            // Driven from the waiting commands' partial index: a few rows, not a probe per device.
            sql.append(" AND d.id IN (SELECT deviceID FROM device_commands WHERE \(CommandQueue.waitingCondition))")
        }
        switch filter.kind {
        case nil: break
        case .real?: sql.append(" AND d.id IN (SELECT deviceID FROM mdm_devices)")
        case .enrolled?: sql.append(" AND d.id IN (SELECT deviceID FROM mdm_devices WHERE state = 'enrolled')")
        case .unenrolled?: sql.append(" AND d.id IN (SELECT deviceID FROM mdm_devices WHERE state = 'unenrolled')")
        case .pushDead?: sql.append(" AND d.id IN (SELECT deviceID FROM mdm_devices WHERE state = 'enrolled' AND pushTokenDeadAt IS NOT NULL)")
        case .outOfStep?: sql.append(" AND d.id IN (\(MDMPolicyDrift.outOfStepDevices))")
        case .simulated?: sql.append(" AND d.id NOT IN (SELECT deviceID FROM mdm_devices)")
        }
        // Never checked in counts as stale: NULL is compared as the start of time.
        if let before = scope.staleBefore { sql.append(" AND (d.lastCheckInAt IS NULL OR d.lastCheckInAt < \(before))") }
    }
}
