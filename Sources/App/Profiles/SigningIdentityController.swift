import Domain
import Foundation
import Hummingbird
import Signing
import Storage

/// The identity that signs exported profiles: the one the console generated, or one an admin
/// uploads (PEM certificate and private key, checked to belong together).
struct SigningIdentityController {
    let services: Services

    struct View {
        let subject: String
        let fingerprint: String
        let expires: String
        let certificatePEM: String
        var error: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/signing", role: .admin) { request, context in try page(error: nil, request: request, context: context) }
        routes.post("/signing", role: .admin) { request, context in
            let actor = Actor(context.user)
            let certificate = context.files["certificate"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? context.form["certificatePEM"]
            let key = context.files["privateKey"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? context.form["privateKeyPEM"]
            do {
                let identity = try SigningIdentity(certificatePEM: certificate, privateKeyPEM: key)
                let previous = try? services.signing.current()
                try services.signing.replace(with: identity)
                try await services.auditLog.record("signing.replaced", subject: identity.subject, by: actor,
                                                   before: previous.map { "SHA-256 \($0.sha256Fingerprint)" }, after: "SHA-256 \(identity.sha256Fingerprint)")
                return .seeOther(Paths.signing, flash: .notice("Profiles are now signed by \(identity.subject)."), cookies: services.cookies, request: request)
            } catch let error as SigningError {
                return try page(error: error.description, request: request, context: context, status: .unprocessableContent)
            }
        }
    }

    private func page(error: String?, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let identity = try services.signing.current()
        let view = View(subject: identity.subject, fingerprint: identity.sha256Fingerprint, expires: DisplayTime.iso(identity.notAfter).prefix(10).description,
                        certificatePEM: identity.certificatePEM, error: error)
        return try services.renderer.page("signing/index", title: "Profile signing", model: view, request: request, context: context, status: status)
    }
}
