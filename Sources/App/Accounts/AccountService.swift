import Domain
import Foundation
import Storage

/// Creating, changing and removing console accounts, with the rules that keep the console
/// administrable: emails are unique, passwords long enough, and the last admin stays an admin.
/// The web pages and the command line both go through here.
struct AccountService: Sendable {
    let database: Database
    let hasher: PasswordHasher
    let now: @Sendable () -> Date

    /// Every account, by email.
    func users() async throws -> [User] {
        try await database.read { try $0.fetch(User.query().order(by: "email")) }
    }

    /// A new account. Without a password one is generated, returned once and must be changed at
    /// first sign-in.
    func createUser(email rawEmail: String, role: Role, password: String?, by actor: Actor) async throws -> (user: User, oneTimePassword: String?) {
        var errors = FieldErrors()
        var email = ""
        do { email = try EmailAddress(validating: rawEmail).value } catch { errors["email"] = error.message }
        if let password, let problem = Self.passwordProblem(password) { errors["password"] = problem }
        try errors.throwIfAny()

        let oneTimePassword = password == nil ? SecretToken.readablePassword() : nil
        let hash = await hasher.hash(password ?? oneTimePassword!)
        let time = now()
        do {
            let user = try await database.write { connection in
                let user = try connection.insert(User(
                    email: email, passwordHash: hash, role: role,
                    mustChangePassword: oneTimePassword != nil, createdAt: time, lastSignInAt: nil))
                try connection.audit(.userCreated, subject: email, by: actor, after: "role: \(role.rawValue)", at: time)
                return user
            }
            return (user, oneTimePassword)
        } catch StorageError.uniqueViolation {
            throw FieldErrors("email", "There is already an account for \(email).")
        }
    }

    /// The user as changed.
    @discardableResult
    func changeRole(of userID: RecordID<User>, to role: Role, by actor: Actor) async throws -> User {
        try await database.write { connection in
            var user = try connection.require(User.self, id: userID)
            guard user.role != role else { return user }
            if user.role == .admin { try Self.requireAnotherAdmin(besides: user, in: connection) }
            let before = user.role
            user.role = role
            try connection.update(user)
            try connection.audit(.userRoleChanged, subject: user.email, by: actor,
                                 before: "role: \(before.rawValue)", after: "role: \(role.rawValue)", at: now())
            return user
        }
    }

    /// The user as it was.
    @discardableResult
    func deleteUser(_ userID: RecordID<User>, by actor: Actor) async throws -> User {
        try await database.write { connection in
            let user = try connection.require(User.self, id: userID)
            if user.id == actor.userID {
                throw FieldErrors("user", "You cannot remove your own account while signed in with it.")
            }
            if user.role == .admin { try Self.requireAnotherAdmin(besides: user, in: connection) }
            try connection.delete(User.self, id: userID)
            try connection.audit(.userDeleted, subject: user.email, by: actor,
                                 before: "role: \(user.role.rawValue)", at: now())
            // Their scripts stop too: a token acts for the person who made it.
            let revoked = try connection.execute("UPDATE api_tokens SET revokedAt = \(now()) WHERE createdBy = \(user.email) AND revokedAt IS NULL")
            if revoked > 0 {
                try connection.audit(.tokenRevoked, subject: "\(Counted.phrase(revoked, "token")) of \(user.email)", by: actor, before: "creator removed", at: now())
            }
            return user
        }
    }

    /// Sets a password the user chose, after checking the current one; other sessions of the
    /// user are signed out because whoever knew the old password may be holding one.
    func changePassword(
        of user: User, current: String, new: String, confirmation: String, keeping session: RecordID<UserSession>?
    ) async throws {
        var errors = FieldErrors()
        if current.isEmpty {
            errors["current"] = "Enter your current password."
        } else if !(await hasher.verify(current, against: user.passwordHash)) {
            errors["current"] = "That is not your current password."
        }
        if let problem = Self.passwordProblem(new) {
            errors["new"] = problem
        } else if new == current {
            errors["new"] = "Choose a password different from the current one."
        }
        if errors["new"] == nil && confirmation != new {
            errors["confirmation"] = "The two new passwords do not match."
        }
        try errors.throwIfAny()

        let hash = await hasher.hash(new)
        let time = now()
        let userID = user.id
        try await database.write { connection in
            var stored = try connection.require(User.self, id: userID)
            stored.passwordHash = hash
            stored.mustChangePassword = false
            try connection.update(stored)
            if let session {
                _ = try connection.execute("DELETE FROM sessions WHERE userID = \(userID) AND id != \(session)")
            } else {
                _ = try connection.execute("DELETE FROM sessions WHERE userID = \(userID)")
            }
            try connection.audit(.userPasswordChanged, subject: stored.email, by: Actor(stored), at: time)
        }
    }

    static func passwordProblem(_ password: String) -> String? {
        if password.count < PasswordHasher.minimumLength {
            return "Use at least \(PasswordHasher.minimumLength) characters."
        }
        // bcrypt reads only the first 72 bytes; a longer password would silently be cut.
        if password.utf8.count > 72 {
            return "Use at most 72 bytes (bcrypt ignores anything longer)."
        }
        // bcrypt also stops at a NUL, and control characters cannot be typed back reliably.
        if let problem = PlainText.problem(password) { return problem }
        return nil
    }

    /// Counted under a lock every such change takes: two consoles removing two admins at once
    /// would otherwise each see the other still there.
    private static func requireAnotherAdmin(besides user: User, in connection: Connection) throws {
        try connection.lock("accounts.admins")
        let admins = try connection.count(User.query().filter("role", .equal, Role.admin))
        if admins <= 1 {
            throw FieldErrors("user", "\(user.email) is the only admin. Make someone else an admin first.")
        }
    }
}
