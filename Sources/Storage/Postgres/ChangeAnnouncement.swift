/// What one console tells the others on the same PostgreSQL database when a write of its
/// changed rows they may hold in memory: `NOTIFY` on the database's channel, sent inside the
/// transaction so it is delivered at COMMIT — heard exactly when the change is visible, never
/// for a write rolled back.
struct ChangeAnnouncement: Equatable {
    /// The announcing console (`Database`), so it does not act on its own news twice.
    let origin: String
    /// As the triggers note them (`PostgresChangeCapture`); nil for "every watched table".
    let notes: String?
    let wholly: String

    /// PostgreSQL refuses a payload of 8,000 bytes or more; a bigger change is announced as
    /// "everything", which makes every cache start over — rare, and never stale.
    static let payloadLimit = 7_900

    /// The channel of the consoles sharing `schema` (tests run many consoles on one server,
    /// each in a schema of its own; those must not hear each other).
    static func channel(schema: String?) -> String {
        "pc_changes" + (schema.map { ".\($0)" } ?? "")
    }

    init(origin: String, notes: String?, wholly: String) {
        self.origin = origin
        self.notes = notes
        self.wholly = wholly
    }

    var payload: String {
        let full = "\(origin)\n\(notes ?? "*")\n\(wholly)"
        return full.utf8.count < Self.payloadLimit ? full : "\(origin)\n*\n"
    }

    init?(payload: String) {
        let parts = payload.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty else { return nil }
        origin = String(parts[0])
        notes = parts[1] == "*" ? nil : String(parts[1])
        wholly = String(parts[2])
    }

    /// The changes announced, in terms of the tables this console watches.
    func changes(watched: Set<String>) -> CommittedChanges {
        guard let notes else { return CommittedChanges(wholly: watched) }
        return CommittedChanges(notes: notes, wholly: wholly)
    }
}
