import Domain
import Foundation
import Storage

/// A person who signs in to the console.
struct User: Record {
    static let tableName = "users"

    var id: RecordID<User> = .unsaved
    var email: String
    var passwordHash: String
    var role: Role
    /// Set for generated one-time passwords: the user chooses their own before going on.
    var mustChangePassword: Bool
    var createdAt: Date
    var lastSignInAt: Date?
}

extension Role: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(rawValue) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue else { return nil }
        self.init(rawValue: text)
    }
}
