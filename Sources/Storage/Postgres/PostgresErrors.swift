import PostgresNIO

/// PostgreSQL's failures as the typed errors callers already handle for SQLite: a duplicate
/// is a `uniqueViolation` whichever backend refused it.
enum PostgresErrors {
    static func storageError(_ error: any Error, sql: String?) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? ClosedBeforeSending { return .unavailable(message: error.description, sql: sql) }
        guard let error = error as? PSQLError else {
            return .io(message: "\(error)", sql: sql)
        }
        guard error.code == .server, let info = error.serverInfo else {
            return isConnectionLevel(error.code)
                ? .unavailable(message: connectionProblem(error), sql: sql)
                : .io(message: connectionProblem(error), sql: sql)
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "PostgreSQL error \(state)"
        // Constraints are named after their table and columns (`users_email_key`), so the name
        // says what SQLite's `users.email` would.
        let constraint = info[.constraintName] ?? info[.columnName].map { "\(info[.tableName] ?? "?").\($0)" } ?? message
        switch state {
        case "23505": return .uniqueViolation(constraint: columns(ofConstraint: constraint, table: info[.tableName]))
        // As SQLite says it, which names no constraint: callers never needed to know which.
        case "23503": return .foreignKeyViolation(constraint: "foreign key")
        case "23502", "23514": return .constraintViolation(constraint: constraint)
        // Serialisation failures, deadlocks and lock timeouts: the write may succeed if tried again.
        case "40001", "40P01", "55P03": return .busy
        case "53100": return .full(sql: sql)
        case "XX001", "XX002": return .corrupt(message: message, sql: sql)
        default:
            if isServerUnavailable(state) { return .unavailable(message: "PostgreSQL is unavailable: \(message)", sql: sql) }
            if state.hasPrefix("53") { return .io(message: message, sql: sql) }
            return .postgres(state: state, message: message, sql: sql)
        }
    }

    /// SQLSTATEs that say the server cannot serve this connection now, though it may in a
    /// moment: connection exceptions (class 08), shutting down or starting up (57P01 admin
    /// shutdown, 57P02 crash shutdown, 57P03 "the database system is starting up", 57P05
    /// idle timeout) and too many connections (53300).
    static func isServerUnavailable(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300"
    }

    /// Driver errors that mean no server is answering on this connection (refused, lost,
    /// closed under it), as opposed to a fault in what was sent or a setting the server refuses.
    static func isConnectionLevel(_ code: PSQLError.Code) -> Bool {
        switch code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError: true
        default: false
        }
    }

    /// `users.email` for `users_email_key`, as SQLite names a unique constraint: PostgreSQL
    /// names it `<table>_<columns>_key` (or `_pkey`, or an index's own name), and our column
    /// names have no underscores, so the columns are what lies between. (The error's detail
    /// would name them too, but it also holds the duplicate value, which may be personal.)
    static func columns(ofConstraint name: String, table: String?) -> String {
        guard let table, name.hasPrefix(table + "_") else { return name }
        var rest = name.dropFirst(table.count + 1)
        for suffix in ["_pkey", "_key", "_idx", "_unique"] where rest.hasSuffix(suffix) {
            rest = rest.dropLast(suffix.count)
            break
        }
        return rest.split(separator: "_").map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// What went wrong before the server could answer, in one line without the driver's dump.
    static func connectionProblem(_ error: PSQLError) -> String {
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: "the connection to PostgreSQL was lost"
        case .connectionError: "cannot reach PostgreSQL" + (error.underlying.map { " (\($0))" } ?? "")
        case .authMechanismRequiresPassword: "PostgreSQL asks for a password and none was given"
        case .sslUnsupported: "PostgreSQL does not offer TLS"
        default: "PostgreSQL: \(error.code)"
        }
    }

    /// Whether `error` means the connection is gone (and the next use should open another).
    static func isConnectionLost(_ error: any Error) -> Bool {
        if error is ClosedBeforeSending { return true }
        guard let error = error as? PSQLError else { return false }
        if isConnectionLevel(error.code) { return true }
        return error.code == .server && error.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    /// The one line a person reads when the console cannot start on `server`, or that a
    /// request's error carries when a connection cannot be opened again while serving: a
    /// server that is down, restarting or starting up is `unavailable` (the next try may
    /// succeed); a refused password or a missing database is `io`, a setting to change.
    static func connectionError(_ error: any Error, server: PostgresServer) -> StorageError {
        guard let error = error as? PSQLError else {
            return .io(message: "cannot reach PostgreSQL at \(server): \(error)", sql: nil)
        }
        if error.code == .server, let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            switch state {
            case "28P01", "28000": return .io(message: "PostgreSQL refused the password or role for \(server)", sql: nil)
            case "3D000": return .io(message: "PostgreSQL at \(server) has no database \"\(server.database)\"", sql: nil)
            case _ where isServerUnavailable(state):
                return .unavailable(message: "PostgreSQL at \(server) is unavailable: \(info[.message] ?? state)", sql: nil)
            default: return .io(message: "PostgreSQL at \(server): \(info[.message] ?? state)", sql: nil)
            }
        }
        if error.code == .connectionError {
            return .unavailable(message: "cannot reach PostgreSQL at \(server)" + (error.underlying.map { ": \($0)" } ?? ""), sql: nil)
        }
        let message = "\(PostgresErrors.connectionProblem(error)) (\(server))"
        return isConnectionLevel(error.code) ? .unavailable(message: message, sql: nil) : .io(message: message, sql: nil)
    }
}
