import Domain
import Foundation
import Hummingbird
import Signing
import Storage

/// Settings › Enrollment, for admins: the push certificate (its topic and expiry, a renewal
/// warning, the upload), the device certificate authority, and enrollment links — made for a
/// group, shown once with a QR code to scan on the device, then listed by state.
struct EnrollmentPageController {
    let links: EnrollmentLinks
    let pushCertificates: PushCertificateStore
    let authority: DeviceAuthorityStore
    let deviceBaseURL: String
    let cookies: CookieJar
    let renderer: PageRenderer
    let now: @Sendable () -> Date

    struct View {
        var push: Push?
        var pushError: String?
        var passwordError: String?
        var authorityError: String?
        var authorityLoss: String?
        var topicChange: String?
        var authority: Authority?
        var groups: [SelectOption] = []
        var hasGroups = false
        var hours = String(EnrollmentLinks.defaultLifetimeHours)
        var groupError: String?
        var hoursError: String?
        var linkError: String?
        var created: Created?
        var links: [Row] = []
        var hasLinks = false
        /// Paging through older links: the next page's address, and the way back to the newest.
        var olderLinks: String?
        var newestLinks: String?
        let publicURL: String
        let publicURLIsLocal: Bool

        struct Push {
            let topic: String
            let expires: String
            let fingerprint: String
            let setBy: String
            let warning: String?
        }

        struct Authority {
            let subject: String
            let fingerprint: String
            let expires: String
        }

        struct Created {
            let url: String
            let profileURL: String
            let groupName: String
            let expires: String
            let qrCode: String?
        }

        struct Row {
            let groupName: String
            let created: String
            let createdBy: String
            let state: String
            /// The address of its Revoke form, while it can still enroll a device.
            let revokePath: String?
        }
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Enrollment.page) { request, context in
            // An id from the page's own "Older links"; anything else shows the newest.
            let before = request.uri.queryParameters["before"].flatMap { RecordID<MDMEnrollmentLinkRecord>(String($0)) }
            return try await page(view(), request: request, context: context, before: before)
        }
        routes.on(Site.Enrollment.uploadPushCertificate) { request, context in try await uploadPushCertificate(request, context) }
        routes.on(Site.Enrollment.createLink) { request, context in try await createLink(request, context) }
        routes.on(Site.Enrollment.revokeLink) { id, request, context in try await revokeLink(id, request, context) }
        routes.on(Site.Enrollment.uploadAuthority) { request, context in try await uploadAuthority(request, context) }
    }

    private func view() -> View {
        View(publicURL: deviceBaseURL, publicURLIsLocal: !deviceBaseURL.hasPrefix("https://"))
    }

    func uploadPushCertificate(_ request: Request, _ context: SignedInContext) async throws -> Response {
        var view = view()
        guard let file = context.files["certificate"], !file.bytes.isEmpty else {
            view.pushError = "Choose the push certificate file: PEM with its key, or a .p12."
            return try await page(view, request: request, context: context, status: .unprocessableContent)
        }
        let certificate: PushCertificate
        do {
            certificate = try MDMAPIController.read(file.bytes, password: context.form["password"].isEmpty ? nil : context.form["password"])
        } catch let error as APIError {
            if error.field == "password" { view.passwordError = error.message } else { view.pushError = error.message }
            return try await page(view, request: request, context: context, status: .unprocessableContent)
        }
        do {
            _ = try await pushCertificates.set(certificate, confirmingTopicChange: context.form["confirmTopicChange"] == "on", by: Actor(context.user))
        } catch let refusal as PushCertificateStore.Refusal {
            guard case .topicChanged(let stored, let uploaded, _) = refusal else { throw refusal }
            view.topicChange = """
                This certificate's topic is \(uploaded), not \(stored). Devices enrolled under the old topic are never woken by it: \
                renew the certificate for the same Apple ID in Apple's Push Certificates Portal. To use it anyway, tick the box and \
                upload it again. \(refusal.cost)
                """
            return try await page(view, request: request, context: context, status: .conflict)
        }
        return .seeOther(Site.Enrollment.page.link(), flash: .notice("The push certificate for \(certificate.topic) is in use."), cookies: cookies, request: request)
    }

    /// An admin's own CA in place of the console's: checked (a CA, RSA, its key, valid now)
    /// before anything changes, and refused while devices are enrolled unless confirmed.
    func uploadAuthority(_ request: Request, _ context: SignedInContext) async throws -> Response {
        var view = view()
        let certificate = context.files["certificate"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        let key = context.files["privateKey"].map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        let uploaded: CertificateAuthority
        do {
            uploaded = try CertificateAuthority(certificatePEM: certificate, privateKeyPEM: key, now: now())
        } catch {
            view.authorityError = error.description
            return try await page(view, request: request, context: context, status: .unprocessableContent)
        }
        do {
            try await authority.replace(with: uploaded, confirmingDevicesLost: context.form["confirmDevicesLost"] == "on", by: Actor(context.user))
        } catch DeviceAuthorityStore.Refusal.devicesEnrolled(let count) {
            view.authorityLoss = """
                \(count == 1 ? "One device is" : "\(count) devices are") enrolled with certificates the current CA issued: \
                the console refuses their messages once another CA is in place, and each must enroll again. \
                Tick the box and upload again to replace it anyway.
                """
            return try await page(view, request: request, context: context, status: .conflict)
        }
        return .seeOther(Site.Enrollment.page.link(), flash: .notice("Devices now get their certificates from \(uploaded.subject)."), cookies: cookies, request: request)
    }

    func createLink(_ request: Request, _ context: SignedInContext) async throws -> Response {
        var view = view()
        view.hours = context.form["hours"]
        let group = RecordID<DeviceGroupRecord>(context.form["group"])
        let hours = Int(view.hours.trimmingWhitespace())
        if group == nil { view.groupError = "Choose the group the device joins." }
        if hours.map(EnrollmentLinks.lifetimeHours.contains) != true {
            view.hoursError = "A whole number of hours from \(EnrollmentLinks.lifetimeHours.lowerBound) to \(EnrollmentLinks.lifetimeHours.upperBound)."
        }
        if try await pushCertificates.stored() == nil {
            view.linkError = "Upload the push certificate first: its topic goes into every enrollment profile."
        }
        guard let group, let hours, view.groupError == nil, view.hoursError == nil, view.linkError == nil else {
            return try await page(view, request: request, context: context, selectedGroup: group, status: .unprocessableContent)
        }
        let made: EnrollmentLinks.Created
        do {
            made = try await links.create(group: group, lifetimeHours: hours, by: Actor(context.user))
        } catch EnrollmentLinks.Refusal.groupNotFound {
            view.groupError = "That group no longer exists."
            return try await page(view, request: request, context: context, status: .unprocessableContent)
        }
        let url = deviceBaseURL + EnrollmentController.pagePath(token: made.token)
        view.created = View.Created(url: url, profileURL: deviceBaseURL + EnrollmentController.profilePath(token: made.token), groupName: made.groupName,
                                    expires: DisplayTime.iso(made.link.expiresAt), qrCode: Self.qrCode(url))
        view.hours = String(EnrollmentLinks.defaultLifetimeHours)
        // Shown in this answer only: the database keeps its hash.
        return try await page(view, request: request, context: context, selectedGroup: group, status: .created)
    }

    /// Ends a link handed out by mistake, or to someone who should no longer enroll a device.
    func revokeLink(_ id: RecordID<MDMEnrollmentLinkRecord>, _ request: Request, _ context: SignedInContext) async throws -> Response {
        let back = Site.Enrollment.page.link()
        do {
            let revoked = try await links.revoke(id, by: Actor(context.user))
            return .seeOther(back, flash: .notice("The enrollment link for \(revoked.groupName) no longer enrolls a device."), cookies: cookies, request: request)
        } catch EnrollmentLinks.Refusal.linkNotFound {
            throw HTTPError(.notFound, message: "No enrollment link has this id.")
        } catch EnrollmentLinks.Refusal.linkUsed {
            return .seeOther(back, flash: .error("A device enrolled with that link already: unenroll the device to remove it."), cookies: cookies, request: request)
        }
    }

    /// The link as a QR code for the device's camera; nil only for a link too long for one,
    /// which the page then gives as text alone.
    static func qrCode(_ url: String) -> String? {
        try? QRCode(url).svg(title: "QR code of the enrollment link")
    }

    /// Links shown at once; older ones a page further.
    static let linksPerPage = 20

    private func page(_ view: View, request: Request, context: SignedInContext, selectedGroup: RecordID<DeviceGroupRecord>? = nil,
                      before: RecordID<MDMEnrollmentLinkRecord>? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        var view = view
        let time = now()
        if let stored = try await pushCertificates.stored() {
            let left = stored.notAfter.timeIntervalSince(time)
            let warning: String? = left <= 0 ? "It expired: devices are not woken until it is renewed."
                : left < PushCertificateStore.renewalWarning ? "It expires in \(Counted.phrase(Int(left / 86_400) + 1, "day")): renew it in Apple's Push Certificates Portal for the same Apple ID."
                : nil
            view.push = View.Push(topic: stored.topic, expires: DisplayTime.iso(stored.notAfter).prefix(10).description, fingerprint: stored.fingerprint,
                                  setBy: "\(stored.setBy), \(DisplayTime.relative(stored.setAt, now: time))", warning: warning)
        }
        if let ca = try await authority.stored() {
            view.authority = View.Authority(subject: ca.subject, fingerprint: ca.sha256Fingerprint, expires: DisplayTime.iso(ca.notAfter).prefix(10).description)
        }
        let (found, groups) = try await links.overview(limit: Self.linksPerPage + 1, before: before)
        let listed = found.prefix(Self.linksPerPage)
        if found.count > Self.linksPerPage, let last = listed.last {
            view.olderLinks = Site.Enrollment.page.link() + "?before=\(last.link.id)#links"
        }
        if before != nil { view.newestLinks = Site.Enrollment.page.link() + "#links" }
        view.groups = SelectOption.groups(groups, first: SelectOption(value: "", label: "Choose a group", selected: selectedGroup == nil), selected: selectedGroup)
        view.hasGroups = !groups.isEmpty
        view.links = listed.map { entry in
            let standing = entry.standing(at: time)
            let state = switch standing {
            case .used: "Used \(DisplayTime.relative(entry.link.challengeUsedAt ?? time, now: time))"
            case .expired: "Expired"
            case .revoked: "Revoked \(DisplayTime.relative(entry.link.revokedAt ?? time, now: time))"
            case .usable: "Open until \(DisplayTime.iso(entry.link.expiresAt))"
            }
            return View.Row(groupName: entry.groupName, created: DisplayTime.relative(entry.link.createdAt, now: time), createdBy: entry.link.createdBy,
                            state: state, revokePath: standing == .usable ? Site.Enrollment.revokeLink.link(entry.link.id) : nil)
        }
        view.hasLinks = !view.links.isEmpty
        return try renderer.page("mdm/settings", title: "Enrollment", model: view, request: request, context: context, status: status)
    }
}
