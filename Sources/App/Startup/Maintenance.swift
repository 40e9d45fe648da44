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

    /// Applies pending migrations; returns a line per migration applied.
    public static func migrate(databasePath: String) throws -> [String] {
        let database = try Database(path: databasePath)
        let applied = try Migrator(Schema.migrations).migrate(database)
        return applied.map { "Applied migration \($0.version): \($0.name)" }
    }

    /// Adds an account. Without a password one is generated and returned, to be changed at
    /// first sign-in.
    public static func addUser(databasePath: String, email: String, role: Role, password: String?, bcryptCost: UInt8 = 12) async throws -> String? {
        let database = try Database(path: databasePath)
        _ = try Migrator(Schema.migrations).migrate(database)
        let accounts = AccountService(database: database, hasher: PasswordHasher(cost: bcryptCost), now: { Date() })
        do {
            return try await accounts.createUser(email: email, role: role, password: password, by: .system).oneTimePassword
        } catch let errors as FieldErrors {
            throw Refusal(description: errors.messages.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))
        }
    }

    /// Creates an API token for a script; returns the token, which is shown only this once.
    public static func createToken(databasePath: String, name: String, role: Role) async throws -> String {
        let database = try Database(path: databasePath)
        _ = try Migrator(Schema.migrations).migrate(database)
        do {
            return try await APITokenStore(database: database, now: { Date() }).create(name: name, role: role, by: .system).token
        } catch let errors as FieldErrors {
            throw Refusal(description: errors.messages.values.sorted().joined(separator: "\n"))
        }
    }
}
