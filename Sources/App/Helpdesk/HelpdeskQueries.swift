import Storage

/// The helpdesk workspace's SQL that the query builder cannot say.
enum HelpdeskQueries {
    /// Each app's newest feedback on the device, by app.
    static func latestFeedback(of device: RecordID<DeviceRecord>) -> SQL {
        """
        SELECT * FROM app_feedback WHERE id IN (
            SELECT max(id) FROM app_feedback WHERE deviceID = \(device) GROUP BY app) ORDER BY app
        """
    }

    /// A device's newest lines by the time they were logged on the device, newest first: lines
    /// arrive late and out of order (a crash log on the next launch, a backlog when the network
    /// returns), so the order they arrived in is not the order they happened in. Each row also
    /// carries, as `lastArrivedColumn`, the id of the last line that arrived from the device
    /// (the open page asks for lines after it): one statement rather than two.
    static func recentLines(of device: RecordID<DeviceRecord>, limit: Int, dialect: Dialect) -> SQL {
        let table: SQL = dialect == .sqlite ? "device_logs AS l INDEXED BY device_logs_by_device_time" : "device_logs AS l"
        return SQL(stringLiteral: "SELECT \(LogQueries.lineColumns), NULL AS highlighted, ")
            + "(SELECT max(id) FROM device_logs WHERE deviceID = \(device)) AS \(identifier: lastArrivedColumn) FROM " + table + """
             WHERE l.deviceID = \(device) ORDER BY l.loggedAt DESC, l.id DESC LIMIT \(limit)
            """
    }

    static let lastArrivedColumn = "lastArrived"

    /// A device's lines that arrived after `after`, newest arrival first.
    /// A device's group and the policy generation, in one statement (`HelpdeskReader.policyKey`).
    static func policyKey(_ device: RecordID<DeviceRecord>) -> SQL {
        "SELECT d.groupID, g.value AS generation FROM devices d, policy_generation g WHERE d.id = \(device)"
    }

    static func linesAfter(_ after: RecordID<DeviceLogRecord>?, device: RecordID<DeviceRecord>, limit: Int) -> SQL {
        SQL(stringLiteral: "SELECT \(LogQueries.lineColumns), NULL AS highlighted FROM device_logs AS l") + """
         WHERE l.deviceID = \(device) AND l.id > \(after?.rawValue ?? 0) ORDER BY l.id DESC LIMIT \(limit)
        """
    }

    /// The apps a device ever reported feedback for.
    static func feedbackApps(of device: RecordID<DeviceRecord>) -> SQL {
        "SELECT DISTINCT app FROM app_feedback WHERE deviceID = \(device) ORDER BY app"
    }
}
