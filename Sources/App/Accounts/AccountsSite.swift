import Domain
import HTTPTypes
import Storage

extension Site {
    /// Signing in and out, one's own password, and the admins' list of people.
    enum Accounts {
        static let signInForm = OpenRoute(.get, "/sign-in")
        static let signIn = OpenRoute(.post, "/sign-in")
        static let signOut = OpenRoute(.post, "/sign-out")
        static let passwordForm = SiteRoute<NoValues>(.get, "/account/password", role: .viewer)
        static let changePassword = SiteRoute<NoValues>(.post, "/account/password", role: .viewer)
        static let users = SiteRoute<NoValues>(.get, "/users", role: .admin)
        static let addUser = SiteRoute<NoValues>(.post, "/users", role: .admin)
        static let changeRole = SiteRoute<RecordID<User>>(.post, "/users/{id}/role", role: .admin)
        static let removeUser = SiteRoute<RecordID<User>>(.post, "/users/{id}/delete", role: .admin)

        /// The sign-in page, returning to `next` (a same-origin path) afterwards.
        static func signInForm(next: String) -> String {
            signInForm.link() + "?next=" + QueryValue.encoded(next)
        }
    }
}
