import Domain
import Foundation
import Hummingbird
import Storage

/// What the person enrolling a device opens: the link's page (what will happen, and how to
/// install), and the signed enrollment profile itself. No sign-in: the link is the secret,
/// and it answers only while it is unused and unexpired.
struct EnrollmentController {
    let links: EnrollmentLinks
    let pushCertificates: PushCertificateStore
    let signing: SigningService
    let renderer: PageRenderer
    let deviceBaseURL: String

    static func pagePath(token: String) -> String { "/mdm/enroll/\(token)" }
    static func profilePath(token: String) -> String { "/mdm/enroll/\(token)/profile" }

    func register(on routes: MDMRoutes) {
        routes.on(.get, "enroll/{token}", access: .anyone) { request, context in try await page(request, context) }
        routes.on(.get, "enroll/{token}/profile", access: .anyone) { request, context in try await profile(request, context) }
    }

    struct PageView {
        let heading: String
        let usable: Bool
        var message = ""
        var organisation = ""
        var groupName = ""
        var profilePath = ""
        var expiresAt = ""
    }

    func page(_ request: Request, _ context: MDMRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let view: PageView
        var status = HTTPResponse.Status.ok
        switch try await state(of: token) {
        case .usable(let link, let groupName, let organisation):
            view = PageView(heading: "Enroll this device", usable: true, organisation: organisation, groupName: groupName,
                            profilePath: Self.profilePath(token: token), expiresAt: DisplayTime.iso(link.expiresAt))
        case let other:
            (view, status) = (PageView(heading: "This enrollment link cannot be used", usable: false, message: Self.words(other)), Self.status(other))
        }
        return try renderer.standalonePage("mdm/enroll", title: view.heading, model: view, status: status)
    }

    func profile(_ request: Request, _ context: MDMRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let state = try await state(of: token)
        guard case .usable(let link, let groupName, let organisation) = state else { throw MDMRefusal(Self.status(state), Self.words(state)) }
        guard let push = try await pushCertificates.stored() else {
            throw MDMRefusal(.serviceUnavailable, "The console has no MDM push certificate: ask an admin to upload it.")
        }
        let profile = EnrollmentProfile(
            organisation: organisation, groupName: groupName, baseURL: deviceBaseURL, topic: push.topic,
            challenge: EnrollmentLinks.challenge(for: token), subjectCommonName: "Payload Console device",
            identifier: EnrollmentProfile.identifierPrefix + "\(link.id)", profileUUID: UUID().uuidString,
            mdmPayloadUUID: UUID().uuidString, scepPayloadUUID: UUID().uuidString)
        let signed = try await signing.sign(Array(profile.propertyList().xmlDocument().utf8))
        return Response(status: .ok, headers: [.contentType: "application/x-apple-aspen-config",
                                               .contentDisposition: "attachment; filename=\"enroll.mobileconfig\"",
                                               .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: signed)))
    }

    /// A token that cannot be one the console made is unknown without asking the database.
    private func state(of token: String) async throws -> EnrollmentLinks.State {
        guard token.count == 43, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return .unknown }
        return try await links.state(of: token)
    }

    static func status(_ state: EnrollmentLinks.State) -> HTTPResponse.Status {
        if case .unknown = state { return .notFound }
        return .gone
    }

    static func words(_ state: EnrollmentLinks.State) -> String {
        switch state {
        case .expired: "This enrollment link expired. Ask your admin for a new one."
        case .revoked: "This enrollment link was withdrawn by your admin. Ask them for a new one."
        case .used: "This enrollment link was used already: each link enrolls one device. Ask your admin for a new one."
        case .unknown, .usable: "There is no enrollment link at this address. Check that you opened the whole link."
        }
    }
}
