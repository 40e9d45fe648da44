import Foundation
import Storage

/// Browser sessions in SQLite: created at sign-in, looked up by the hash of the cookie token,
/// deleted at sign-out, and ignored (then tidied) once expired.
struct SessionStore: Sendable {
    let database: Database
    let lifetime: TimeInterval
    let now: @Sendable () -> Date

    /// Creates a session and returns the cookie token, which exists nowhere else afterwards.
    func create(for user: User, in connection: Connection) throws -> (token: String, session: UserSession) {
        let token = SecretToken.generate()
        let time = now()
        let session = try connection.insert(UserSession(
            tokenHash: SecretToken.digest(token), userID: user.id,
            csrfToken: SecretToken.generate(), createdAt: time,
            expiresAt: time.addingTimeInterval(lifetime), lastSeenAt: time))
        return (token, session)
    }

    /// The live session and its user for a cookie token, or nil when unknown or expired.
    func load(token: String) async throws -> (session: UserSession, user: User)? {
        let time = now()
        // Every page asks this first: the session and its user in one statement (on
        // PostgreSQL, one round trip), which is its own snapshot.
        let found = try await database.readSingleStatement { connection -> (UserSession, User)? in
            guard let row = try connection.row(Self.sessionWithUser(tokenHash: SecretToken.digest(token))) else { return nil }
            let session = try row.part(nil).decode(UserSession.self)
            guard session.expiresAt > time else { return nil }
            return (session, try row.part("user").decode(User.self))
        }
        guard case (var session, let user)? = found else { return nil }
        // Writing on every request would serialise all traffic on the writer; a minute's
        // precision is plenty for "last seen".
        if time.timeIntervalSince(session.lastSeenAt) > 60 {
            session.lastSeenAt = time
            let touched = session
            try await database.writeBookkeeping { try $0.execute("UPDATE sessions SET lastSeenAt = \(touched.lastSeenAt) WHERE id = \(touched.id)") }
        }
        return (session, user)
    }

    /// The session with this token hash and its user, side by side (`Row.part`).
    static func sessionWithUser(tokenHash: String) -> SQL {
        "SELECT s.*, NULL AS __user, u.* FROM sessions AS s JOIN users AS u ON u.id = s.userID WHERE s.tokenHash = \(tokenHash)"
    }

    func delete(_ session: UserSession, in connection: Connection) throws {
        try connection.delete(UserSession.self, id: session.id)
    }

    /// Signs a user out everywhere else, after a password change or a role change.
    func deleteAll(for userID: RecordID<User>, except kept: RecordID<UserSession>? = nil, in connection: Connection) throws {
        if let kept {
            _ = try connection.execute("DELETE FROM sessions WHERE userID = \(userID) AND id != \(kept)")
        } else {
            _ = try connection.execute("DELETE FROM sessions WHERE userID = \(userID)")
        }
    }

    func deleteExpired() async throws -> Int {
        let time = now()
        return try await database.write { try $0.execute("DELETE FROM sessions WHERE expiresAt <= \(time)") }
    }
}
