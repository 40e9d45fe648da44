import Foundation
import Storage

/// A signed-in browser. The cookie carries a random token; the row keeps only its hash.
struct UserSession: Record {
    static let tableName = "sessions"

    var id: RecordID<UserSession> = .unsaved
    var tokenHash: String
    var userID: RecordID<User>
    /// Sent back in every form this session renders and checked on every POST.
    var csrfToken: String
    var createdAt: Date
    var expiresAt: Date
    var lastSeenAt: Date
}

/// Failed sign-ins for one email address, the input to the sign-in throttle.
struct SignInFailure: Record {
    static let tableName = "sign_in_failures"

    var id: RecordID<SignInFailure> = .unsaved
    var email: String
    var failureCount: Int
    var lastFailureAt: Date
}
