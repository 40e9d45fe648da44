import Storage

/// An app whose lines fill three quarters or more of its share of the log store: the app's
/// log page, the devices running it and the dashboard say so before uploads are refused.
struct LogCapWarning: Sendable, Equatable {
    static let threshold = 0.75

    let app: String
    let usedBytes: Int
    let capBytes: Int

    var percent: Int { Int((Double(usedBytes) / Double(max(capBytes, 1)) * 100).rounded(.down)) }
    var isFull: Bool { usedBytes >= capBytes }

    /// One sentence, with the app named as the page names it.
    func message(appName: String) -> String {
        let used = "\(appName) has used \(ByteCountText.megabytes(usedBytes)) of its \(ByteCountText.megabytes(capBytes)) of log storage (\(percent)%)"
        return isFull ? used + "; new uploads are refused until retention or a deletion frees space."
            : used + "; at the cap new uploads will be refused."
    }

    /// The apps among `apps` (every app when nil) at or past the threshold of `cap`, fullest
    /// first; read from the log store.
    static func `for`(apps: [String]?, capBytes cap: Int, in connection: Connection) throws -> [LogCapWarning] {
        guard let query = query(apps: apps, capBytes: cap) else { return [] }
        return try warnings(connection.rows(query), capBytes: cap)
    }

    /// What `for` reads, for a caller that sends it with other reads; nil when there is
    /// nothing to ask (a device with no apps).
    static func query(apps: [String]?, capBytes cap: Int) -> SQL? {
        if apps?.isEmpty == true { return nil }
        return LogQueries.usage(of: apps, atLeast: Int((Double(cap) * threshold).rounded(.up)))
    }

    /// The warnings in `query`'s rows.
    static func warnings(_ rows: [Row], capBytes cap: Int) throws -> [LogCapWarning] {
        try rows.map { try $0.decode(LogUsage.self) }.map { LogCapWarning(app: $0.app, usedBytes: $0.byteCount, capBytes: cap) }
    }
}
