import Storage

/// The log store's SQL that the query builder cannot say: what a second backend would provide again.
enum LogQueries {
    /// Adds a batch's lines to an app's usage, creating its row on first use.
    static func addUsage(app: String, bytes: Int, lines: Int) -> SQL {
        """
        INSERT INTO log_usage (app, byteCount, lineCount) VALUES (\(app), \(bytes), \(lines))
        ON CONFLICT (app) DO UPDATE SET byteCount = byteCount + excluded.byteCount, lineCount = lineCount + excluded.lineCount
        """
    }

    static func usage(of apps: [String]) -> SQL {
        "SELECT app, byteCount, lineCount FROM log_usage WHERE app IN (\(list: apps))"
    }
}
