import Foundation
import Storage

/// The long-lived pieces every controller needs, built once at start-up.
struct Services: Sendable {
    let config: AppConfig
    let database: Database
    let renderer: PageRenderer
    let cookies: CookieJar
    let sessions: SessionStore
    let hasher: PasswordHasher
    let accounts: AccountService
    let signing: SigningService
    /// Decoded profile versions, shared by every effective-policy computation.
    let profileContents = ProfileContentCache()

    var now: Date { config.now() }
}
