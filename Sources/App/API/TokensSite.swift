import Domain
import HTTPTypes
import Storage

extension Site {
    /// API tokens: the admins' list, issuing one, and revoking one.
    enum Tokens {
        static let list = SiteRoute<NoValues>(.get, "/tokens", role: .admin)
        static let issue = SiteRoute<NoValues>(.post, "/tokens", role: .admin)
        static let revoke = SiteRoute<RecordID<APITokenRecord>>(.post, "/tokens/{id}/revoke", role: .admin)
    }

    /// The JSON API's OpenAPI document, open to anyone so tools can read it.
    static let apiDocument = OpenRoute(.get, "/api/openapi.json")
}
