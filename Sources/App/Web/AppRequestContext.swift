import Hummingbird
import Logging
import Storage

/// Per-request state: who is signed in, their session, and the parsed form, so that
/// middleware does each of these once and handlers just read them.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: User?
    var session: UserSession?
    /// The API token the request came with (JSON API routes only).
    var apiToken: RecordID<APITokenRecord>?
    /// A device that checked in with its token (device API routes only).
    var device: CheckingInDevice?
    /// The token forms on this page must send back: the session's, or before sign-in the
    /// value of the `pc_csrf` cookie.
    var csrfToken = ""
    /// Fields of a URL-encoded body, parsed by the CSRF check before the handler runs.
    var form = FormFields()
    /// Files of a multipart form, by field name.
    var files: [String: UploadedFile] = [:]

    init(source: Source) {
        coreContext = .init(source: source)
    }
}
