import Domain
import Foundation
import Hummingbird

/// The console's cookies: all HttpOnly and SameSite=Lax; Secure when the console is served over
/// TLS (configured, or announced by a TLS-terminating proxy).
struct CookieJar: Sendable {
    static let session = "pc_session"
    static let signedOutCSRF = "pc_csrf"
    static let flash = "pc_flash"

    let alwaysSecure: Bool

    func isSecure(_ request: Request) -> Bool {
        alwaysSecure || request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    func make(_ name: String, value: String, maxAge: Int?, for request: Request) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: isSecure(request), httpOnly: true, sameSite: .lax)
    }

    func expire(_ name: String, for request: Request) -> Cookie {
        make(name, value: "", maxAge: 0, for: request)
    }
}

/// A one-shot message shown on the next page ("User added."), carried in a short-lived cookie
/// so it survives the redirect after a POST.
struct Flash: Sendable, Equatable {
    enum Kind: String, Sendable { case notice, error }

    let kind: Kind
    let message: String

    static func notice(_ message: String) -> Flash { Flash(kind: .notice, message: message) }
    static func error(_ message: String) -> Flash { Flash(kind: .error, message: message) }

    var cookieValue: String {
        let encoded = message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "\(kind.rawValue).\(encoded)"
    }

    /// Messages are clipped so the cookie stays far below browsers' 4 KB limit, whatever
    /// text a message quotes.
    static let maximumLength = 250

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message.clipped(to: Self.maximumLength)
    }

    init?(cookieValue: String) {
        let parts = cookieValue.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])),
              let message = String(parts[1]).removingPercentEncoding, !message.isEmpty
        else { return nil }
        self.init(kind: kind, message: message)
    }
}

extension Response {
    /// Redirects and leaves a message for the page the browser lands on.
    static func seeOther(_ location: String, flash: Flash, cookies: CookieJar, request: Request) -> Response {
        var response = Response.seeOther(location)
        response.setCookie(cookies.make(CookieJar.flash, value: flash.cookieValue, maxAge: 60, for: request))
        return response
    }
}
