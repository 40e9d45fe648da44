/// Why a request may not go on; the error-page middleware turns each into the right answer
/// for a browser (a redirect or a page) or for a script (a JSON error).
enum AccessDenied: Error, Equatable {
    /// No valid session: browsers go to the sign-in form.
    case signInRequired
    /// Signed in with a one-time password that must be replaced first.
    case passwordChangeRequired
    /// Signed in, but the route needs a higher role.
    case insufficientRole
    /// The form's CSRF token is missing or does not match the session's.
    case formExpired
}
