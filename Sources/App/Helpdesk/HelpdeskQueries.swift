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

    /// A device's lines newer than `after`, newest first.
    static func linesAfter(_ after: RecordID<DeviceLogRecord>?, device: RecordID<DeviceRecord>, limit: Int) -> SQL {
        """
        SELECT l.*, NULL AS highlighted FROM device_logs AS l
        WHERE l.deviceID = \(device) AND l.id > \(after?.rawValue ?? 0) ORDER BY l.id DESC LIMIT \(limit)
        """
    }

    /// The apps a device ever reported feedback for.
    static func feedbackApps(of device: RecordID<DeviceRecord>) -> SQL {
        "SELECT DISTINCT app FROM app_feedback WHERE deviceID = \(device) ORDER BY app"
    }
}
