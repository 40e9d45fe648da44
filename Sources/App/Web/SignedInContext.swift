import Hummingbird

/// What a page needs from its request, whoever is signed in, or no one.
protocol PageRenderingContext {
    var csrfToken: String { get }
    var signedInUser: User? { get }
}

extension AppRequestContext: PageRenderingContext {
    var signedInUser: User? { user }
}

/// A request from someone signed in (or a script with an API token) on a route that needs a
/// role: its handlers get the user itself, never an optional. A request without one never
/// reaches them (sign-in page, or 401 for the API).
struct SignedInContext: ChildRequestContext, PageRenderingContext {
    typealias ParentContext = AppRequestContext
    var coreContext: CoreRequestContextStorage
    let user: User
    /// The browser session; nil for an API token.
    let session: UserSession?
    /// Who acts: the person, or the API token and the person who made it.
    let principal: Principal
    let csrfToken: String
    let form: FormFields
    let files: [String: UploadedFile]

    init(context: AppRequestContext) throws {
        guard let user = context.user else { throw AccessDenied.signInRequired }
        coreContext = context.coreContext
        self.user = user
        session = context.session
        principal = Principal(user: user, tokenID: context.apiToken)
        csrfToken = context.csrfToken
        form = context.form
        files = context.files
    }

    var signedInUser: User? { user }
}
