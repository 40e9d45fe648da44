import Domain
import HTTPTypes

extension Site {
    /// The console's settings and the retention purge.
    enum Settings {
        static let page = SiteRoute<NoValues>(.get, "/settings", role: .admin)
        static let save = SiteRoute<NoValues>(.post, "/settings", role: .admin)
        static let purgeNow = SiteRoute<NoValues>(.post, "/settings/retention", role: .admin)
    }
}
