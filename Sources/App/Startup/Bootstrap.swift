import Domain
import Foundation
import Storage

/// Makes sure someone can sign in after start-up, and says how.
///
/// - Demo start: the three demo accounts exist and get fresh passwords, printed for the
///   stakeholders in the room. Fresh each start so a demo database never keeps a known password.
/// - Empty database otherwise: one admin with a one-time password, printed once, to be
///   changed at first sign-in.
enum Bootstrap {
    static let demoAccounts: [(email: String, role: Role)] = [
        ("admin@example.com", .admin),
        ("helpdesk@example.com", .helpdesk),
        ("viewer@example.com", .viewer),
    ]

    /// Returns the lines to print for whoever started the console.
    static func prepareAccounts(config: AppConfig, database: Database, logs: Database, hasher: PasswordHasher) async throws -> [String] {
        if config.demo {
            var lines = ["Demo accounts (passwords are new at every start):"]
            for account in demoAccounts {
                let password = SecretToken.readablePassword()
                try await resetDemoAccount(account.email, role: account.role, password: password, database: database, hasher: hasher, now: config.now())
                lines.append("  \(account.role.displayName.padding(toLength: 9, withPad: " ", startingAt: 0)) \(account.email)  password: \(password)")
            }
            if try await DemoData.seedIfEmpty(database: database, logs: logs, now: config.now()) {
                lines.append("Seeded demo apps, groups, devices and profiles.")
            }
            return lines
        }
        let userCount = try await database.read { try $0.count(User.query()) }
        guard userCount == 0 else { return [] }
        let accounts = AccountService(database: database, hasher: hasher, now: config.now)
        let (_, password) = try await accounts.createUser(email: config.firstAdminEmail, role: .admin, password: nil, by: .system)
        return [
            "First start: created the admin account \(config.firstAdminEmail)",
            "  one-time password: \(password ?? "")",
            "  (shown only now; you will choose your own at first sign-in)",
        ]
    }

    private static func resetDemoAccount(_ email: String, role: Role, password: String, database: Database, hasher: PasswordHasher, now: Date) async throws {
        let hash = await hasher.hash(password)
        try await database.write { connection in
            if var user = try connection.fetchOne(User.query().filter("email", .equal, email)) {
                user.passwordHash = hash
                user.role = role
                user.mustChangePassword = false
                try connection.update(user)
            } else {
                _ = try connection.insert(User(email: email, passwordHash: hash, role: role,
                                               mustChangePassword: false, createdAt: now, lastSignInAt: nil))
                try connection.audit(.userCreated, subject: email, by: .system, after: "role: \(role.rawValue) (demo)", at: now)
            }
        }
    }
}
