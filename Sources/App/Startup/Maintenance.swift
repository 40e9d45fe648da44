import Domain
import Foundation
import Storage

/// What the command line does besides serving: migrate a database, add an account. Each opens
/// the database itself, so it works while no console is running (or beside a running one:
/// SQLite serialises the writes).
public enum Maintenance {
    /// A refusal the command line prints as-is, without a stack of Swift types.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Applies pending migrations to the console's file and the log store's beside it (moving
    /// the log tables of a console file from before the move); returns a line per step.
    public static func migrate(databasePath: String, logDatabasePath: String? = nil) throws -> [String] {
        try LogStoreFiles.open(consolePath: databasePath, logsPath: logDatabasePath).applied
    }

    /// The console's file, up to date; the log store's beside it too, since bringing the
    /// console's file up to date may move the log tables out of it.
    private static func openConsole(_ databasePath: String, logDatabasePath: String?) throws -> Database {
        try LogStoreFiles.open(consolePath: databasePath, logsPath: logDatabasePath).files.console
    }

    /// Adds an account. Without a password one is generated and returned, to be changed at
    /// first sign-in.
    public static func addUser(databasePath: String, logDatabasePath: String? = nil, email: String, role: Role, password: String?,
                               bcryptCost: UInt8 = 12) async throws -> String? {
        let database = try openConsole(databasePath, logDatabasePath: logDatabasePath)
        let accounts = AccountService(database: database, hasher: PasswordHasher(cost: bcryptCost), now: { Date() })
        do {
            return try await accounts.createUser(email: email, role: role, password: password, by: .system).oneTimePassword
        } catch let errors as FieldErrors {
            throw Refusal(description: errors.messages.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))
        }
    }

    /// Creates an API token for a script; returns the token, which is shown only this once.
    public static func createToken(databasePath: String, logDatabasePath: String? = nil, name: String, role: Role) async throws -> String {
        let database = try openConsole(databasePath, logDatabasePath: logDatabasePath)
        do {
            return try await APITokenStore(database: database, now: { Date() }).create(name: name, role: role, by: .system).token
        } catch let errors as FieldErrors {
            throw Refusal(description: errors.messages.values.sorted().joined(separator: "\n"))
        }
    }
}
