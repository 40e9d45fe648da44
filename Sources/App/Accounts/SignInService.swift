import Domain
import Foundation
import Storage

/// Signing in and out. A failed sign-in looks the same whether or not the account exists and
/// takes as long either way; after repeated failures for one email the next attempt must wait
/// (`SignInThrottle`), counted before bcrypt runs so parallel guesses cannot slip under it.
struct SignInService: Sendable {
    let database: Database
    let hasher: PasswordHasher
    let sessions: SessionStore
    let throttle: SignInThrottle
    let now: @Sendable () -> Date

    enum Outcome {
        case signedIn(User, sessionToken: String)
        case refused
        /// Too many failures for this email: seconds until the next attempt is checked.
        case throttled(seconds: Double)
    }

    /// `email` is already validated and normalised.
    func signIn(email: String, password: String) async throws -> Outcome {
        let time = now()
        let wait = try await reserveAttempt(for: email, at: time)
        if wait > 0 { return .throttled(seconds: wait) }
        let user = try await database.read { try $0.fetchOne(User.query().filter("email", .equal, email)) }
        guard let user else {
            await hasher.verifyAgainstNothing(password)
            return .refused
        }
        guard await hasher.verify(password, against: user.passwordHash) else { return .refused }
        let token = try await database.writeFreeingRoom { connection -> String in
            _ = try connection.delete(SignInFailure.query().filter("email", .equal, email))
            var signedIn = user
            signedIn.lastSignInAt = time
            try connection.update(signedIn)
            let (token, _) = try sessions.create(for: signedIn, in: connection)
            try connection.audit(.userSignedIn, subject: user.email, by: Actor(user), at: time)
            return token
        }
        return .signedIn(user, sessionToken: token)
    }

    func signOut(_ session: UserSession, user: User?) async throws {
        try await database.write { connection in
            try sessions.delete(session, in: connection)
            if let user {
                try connection.audit(.userSignedOut, subject: user.email, by: Actor(user), at: now())
            }
        }
    }

    /// Counts this attempt as a failure before the password is checked, in the same write
    /// that reads the count; a correct password then clears the count. Answers the seconds
    /// still to wait (0: go ahead).
    private func reserveAttempt(for email: String, at time: Date) async throws -> Double {
        try await database.writeFreeingRoom { connection in
            // Parallel attempts, on this console or another on the same database, are counted
            // one after the other: none reads the count another is about to raise.
            try connection.lock("sign-in:" + email)
            guard var failure = try connection.fetchOne(SignInFailure.query().filter("email", .equal, email)) else {
                _ = try connection.insert(SignInFailure(email: email, failureCount: 1, lastFailureAt: time))
                return 0
            }
            let wait = throttle.remainingWait(failures: failure.failureCount, secondsSinceLastFailure: time.timeIntervalSince(failure.lastFailureAt))
            guard wait == 0 else { return wait }
            failure.failureCount += 1
            failure.lastFailureAt = time
            try connection.update(failure)
            return 0
        }
    }
}
