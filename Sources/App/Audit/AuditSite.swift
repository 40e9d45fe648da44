import Domain
import HTTPTypes

extension Site {
    /// The audit log, on a page and as CSV.
    enum Audit {
        static let log = SiteRoute<NoValues>(.get, "/audit", role: .admin)
        static let csv = SiteRoute<NoValues>(.get, "/audit.csv", role: .admin)
    }
}
