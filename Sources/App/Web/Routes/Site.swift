import Domain
import HTTPTypes

/// Every page and form action of the console, declared once by feature
/// (`Site.Devices.show`, `Site.Profiles.history`…) in a `…Site.swift` file beside the feature's
/// controllers. A controller registers its handlers from these declarations and views make
/// their links from them, so no address is typed twice. The JSON API declares its operations
/// the same way, as `APIEndpoint`s.
enum Site {
    /// The front door: signed in, the dashboard; signed out, the sign-in page.
    static let home = OpenRoute(.get, "/")
    static let dashboard = SiteRoute<NoValues>(.get, "/dashboard", role: .viewer)
}
