import Domain
import Foundation
import Hummingbird
import Signing
import Storage

/// MDM in the JSON API, for admins: enrollment links, the push certificate and the device CA.
struct MDMAPIController {
    let links: EnrollmentLinks
    let pushCertificates: PushCertificateStore
    let authority: DeviceAuthorityStore
    let deviceBaseURL: String

    static let createEnrollment = APIEndpoint<EnrollmentBody, EnrollmentAnswer>(
        .post, "/api/v1/enrollments", role: .admin,
        "Make a one-time enrollment link for a group: a device that opens it downloads the enrollment profile and joins the group. "
            + "The link (and the SCEP challenge in its profile) expires after expiresInHours (default 24) and dies with its first enrollment.",
        success: .created,
        otherAnswers: [409: "push_certificate_missing: upload the MDM push certificate first (its topic goes into the profile)",
                       422: "validation_failed: group names no group, or expiresInHours is not 1–720"])
    static let listEnrollments = APIEndpoint<NoBody, EnrollmentList>(
        .get, "/api/v1/enrollments", role: .admin,
        "The enrollment links, newest first, a page at a time (follow next): group, who made it, when it expires and whether a device used it. "
            + "A link's URL is shown only when it is made.",
        parameters: ["limit", "before"])
    static let revokeEnrollment = Endpoint<RecordID<MDMEnrollmentLinkRecord>, NoBody, EnrollmentListing>(
        .delete, "/api/v1/enrollments/{id}", role: .admin,
        "Revoke an unused enrollment link: it expires now, so its page and profile answer 410 and its SCEP challenge issues nothing. Answers the link",
        otherAnswers: [404: "not_found", 409: "enrollment_used: a device enrolled with it (unenroll the device instead)"])
    static let pushCertificate = APIEndpoint<NoBody, PushCertificateAnswer>(
        .get, "/api/v1/mdm/push-certificate", role: .admin, "The MDM push certificate: its topic, expiry and fingerprint (never its key)",
        otherAnswers: [404: "not_found: none was uploaded"])
    static let setPushCertificate = APIEndpoint<FileBody<PushCertificateUpload>, PushCertificateAnswer>(
        .put, "/api/v1/mdm/push-certificate", role: .admin,
        "Upload the MDM push certificate with its private key: PEM (certificate and unencrypted key in one file), or a PKCS#12 file with ?password=. "
            + "A certificate whose topic differs from the stored one is refused unless confirmTopicChange=true: every enrolled device would have to enroll again.",
        parameters: ["password", "confirmTopicChange"],
        otherAnswers: [409: "topic_changed: the topic is not the stored certificate's (confirmTopicChange=true replaces it anyway)",
                       413: "payload_too_large", 422: "not_a_push_certificate (no com.apple.mgmt. topic) or invalid_push_certificate; field body"])
    static let deviceAuthority = APIEndpoint<NoBody, DeviceAuthorityAnswer>(
        .get, "/api/v1/mdm/authority", role: .admin,
        "The certificate authority that issues devices' identity certificates through SCEP: its subject, expiry and fingerprint (never its key)")
    static let setDeviceAuthority = APIEndpoint<FileBody<DeviceAuthorityUpload>, DeviceAuthorityAnswer>(
        .put, "/api/v1/mdm/authority", role: .admin,
        "Put your own CA in place of the one the console made: one PEM file with the CA certificate (RSA, a CA, valid now) and its unencrypted key. "
            + "Every enrolled device signs with a certificate the current CA issued and must enroll again afterwards, so while any is enrolled "
            + "this needs confirmDevicesLost=true.",
        parameters: ["confirmDevicesLost"],
        otherAnswers: [409: "devices_enrolled: devices are enrolled with the current CA (confirmDevicesLost=true replaces it anyway)",
                       413: "payload_too_large", 422: "invalid_authority: not a CA certificate with its key, or not valid now; field body"])

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.createEnrollment) { body, request, context in
            try APIQuery.refuseUnknown(of: request, allowed: [])
            guard try await pushCertificates.stored() != nil else {
                throw APIError(status: .conflict, code: .pushCertificateMissing,
                               message: "Upload the MDM push certificate first: its topic goes into every enrollment profile.")
            }
            let created: EnrollmentLinks.Created
            do {
                created = try await links.create(group: body.group, lifetimeHours: body.expiresInHours ?? EnrollmentLinks.defaultLifetimeHours,
                                                 by: Actor(context.user))
            } catch EnrollmentLinks.Refusal.groupNotFound {
                throw APIError(status: .unprocessableContent, code: .validationFailed, message: "No group has this id.", field: "group")
            } catch EnrollmentLinks.Refusal.lifetimeOutOfRange {
                throw APIError(status: .unprocessableContent, code: .validationFailed,
                               message: "expiresInHours must be from \(EnrollmentLinks.lifetimeHours.lowerBound) to \(EnrollmentLinks.lifetimeHours.upperBound).",
                               field: "expiresInHours")
            }
            return Reply(EnrollmentAnswer(created, baseURL: deviceBaseURL))
        }
        routes.handle(Self.listEnrollments) { request, _ in
            try APIQuery.refuseUnknown(of: request, allowed: ["limit", "before"])
            let limit = try APIQuery.limit(of: request)
            let found = try await links.overview(limit: limit + 1, before: try APIQuery.id("before", of: request)).links
            let page = found.prefix(limit), now = links.now()
            let next = found.count > limit ? page.last.map { Self.listEnrollments.link() + "?before=\($0.link.id)&limit=\(limit)" } : nil
            return Reply(EnrollmentList(enrollments: page.map { EnrollmentListing($0, now: now) }, next: next))
        }
        routes.handle(Self.revokeEnrollment) { id, _, context in
            do {
                return Reply(EnrollmentListing(try await links.revoke(id, by: Actor(context.user)), now: links.now()))
            } catch EnrollmentLinks.Refusal.linkNotFound {
                throw APIError(status: .notFound, code: .notFound, message: "No enrollment link has this id.")
            } catch EnrollmentLinks.Refusal.linkUsed {
                throw APIError(status: .conflict, code: .enrollmentUsed,
                               message: "A device enrolled with this link, so it can no longer be used; to remove the device from MDM, unenroll it.")
            }
        }
        routes.handle(Self.deviceAuthority) { request, _ in
            try APIQuery.refuseUnknown(of: request, allowed: [])
            return Reply(DeviceAuthorityAnswer(try await authority.current()))
        }
        routes.handle(Self.setDeviceAuthority) { body, request, context in Reply(try await setAuthority(body, request, context)) }
        routes.handle(Self.pushCertificate) { request, _ in
            try APIQuery.refuseUnknown(of: request, allowed: [])
            guard let stored = try await pushCertificates.stored() else {
                throw APIError(status: .notFound, code: .notFound, message: "No MDM push certificate was uploaded.")
            }
            return Reply(PushCertificateAnswer(stored))
        }
        routes.handle(Self.setPushCertificate) { body, request, context in
            try APIQuery.refuseUnknown(of: request, allowed: ["password", "confirmTopicChange"])
            let certificate = try Self.read(body.bytes, password: request.uri.queryParameters["password"].map(String.init))
            do {
                let stored = try await pushCertificates.set(certificate, confirmingTopicChange: try APIQuery.bool("confirmTopicChange", of: request) ?? false,
                                                            by: Actor(context.user))
                return Reply(PushCertificateAnswer(stored))
            } catch let refusal as PushCertificateStore.Refusal {
                guard case .topicChanged(let stored, let uploaded, _) = refusal else { throw refusal }
                throw APIError(status: .conflict, code: .topicChanged, message: """
                    The certificate's topic is \(uploaded), not \(stored): devices enrolled under the old topic are never woken by it. \
                    Renew the certificate for the same Apple ID in Apple's Push Certificates Portal, or send confirmTopicChange=true \
                    to use it anyway. \(refusal.cost)
                    """, field: "body")
            }
        }
    }

    private func setAuthority(_ body: FileBody<DeviceAuthorityUpload>, _ request: Request, _ context: SignedInContext) async throws -> DeviceAuthorityAnswer {
        try APIQuery.refuseUnknown(of: request, allowed: ["confirmDevicesLost"])
        let confirmed = try APIQuery.bool("confirmDevicesLost", of: request) ?? false
        let pem = String(decoding: body.bytes, as: UTF8.self)
        let uploaded: CertificateAuthority
        do {
            uploaded = try CertificateAuthority(certificatePEM: pem, privateKeyPEM: pem, now: links.now())
        } catch {
            throw APIError(status: .unprocessableContent, code: .invalidAuthority, message: error.description, field: "body")
        }
        do {
            try await authority.replace(with: uploaded, confirmingDevicesLost: confirmed, by: Actor(context.user))
        } catch DeviceAuthorityStore.Refusal.devicesEnrolled(let count) {
            throw APIError(status: .conflict, code: .devicesEnrolled, message: """
                \(count == 1 ? "One device is" : "\(count) devices are") enrolled with certificates the current CA issued: \
                the console refuses their messages once another CA is in place, and each must enroll again. \
                Send confirmDevicesLost=true to replace it anyway.
                """, field: "confirmDevicesLost")
        }
        return DeviceAuthorityAnswer(uploaded)
    }

    /// PEM when the file reads as text with a PEM block, else PKCS#12 (which needs the password).
    /// A password holding control characters is refused before anything is read: no .p12
    /// password a person types holds them.
    static func read(_ bytes: [UInt8], password: String?) throws -> PushCertificate {
        if let password, let problem = PlainText.problem(password) {
            throw APIError(status: .unprocessableContent, code: .validationFailed, message: "In the password: \(problem)", field: "password")
        }
        do {
            if bytes.starts(with: Array("-----BEGIN".utf8)) || String(decoding: bytes.prefix(4096), as: UTF8.self).contains("-----BEGIN ") {
                return try PushCertificate.read(pem: bytes)
            }
            return try PushCertificate.read(pkcs12: bytes, password: password ?? "")
        } catch {
            throw APIError(status: .unprocessableContent, code: error == .notAnMDMPushCertificate ? .notAPushCertificate : .invalidPushCertificate,
                           message: error.description, field: "body")
        }
    }
}

/// `POST /api/v1/enrollments`.
struct EnrollmentBody: APIRequestBody {
    let group: RecordID<DeviceGroupRecord>
    let expiresInHours: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case group, expiresInHours
    }
}

/// A new enrollment link: `url` is the page to open on the device, `profileURL` the
/// enrollment profile itself. Neither can be shown again.
struct EnrollmentAnswer: APIAnswer, NamedSchema {
    static let schemaName = "Enrollment"
    let id: RecordID<MDMEnrollmentLinkRecord>
    let url: String
    let profileURL: String
    let expiresAt: Date

    init(_ created: EnrollmentLinks.Created, baseURL: String) {
        id = created.link.id
        url = baseURL + EnrollmentController.pagePath(token: created.token)
        profileURL = baseURL + EnrollmentController.profilePath(token: created.token)
        expiresAt = created.link.expiresAt
    }
}

/// An enrollment link as admins review it: never its URL, which only its holder has.
struct EnrollmentListing: APIAnswer, NamedSchema {
    static let schemaName = "EnrollmentLink"
    let id: RecordID<MDMEnrollmentLinkRecord>
    let group: RecordID<DeviceGroupRecord>
    let groupName: String
    let createdBy: String
    let createdAt: Date
    let expiresAt: Date
    /// usable, used (a device enrolled with it), expired, or revoked (ended early by an admin).
    let state: EnrollmentLinks.Standing
    let usedAt: Date?
    let revokedAt: Date?

    init(_ listed: EnrollmentLinks.Listed, now: Date) {
        id = listed.link.id
        group = listed.link.groupID
        groupName = listed.groupName
        createdBy = listed.link.createdBy
        createdAt = listed.link.createdAt
        expiresAt = listed.link.expiresAt
        state = listed.standing(at: now)
        usedAt = listed.link.challengeUsedAt
        revokedAt = listed.link.revokedAt
    }
}

struct EnrollmentList: APIAnswer, NamedSchema {
    static let schemaName = "EnrollmentLinks"
    let enrollments: [EnrollmentListing]
    /// The next page's address, while there is one.
    let next: String?
}

struct PushCertificateAnswer: APIAnswer, NamedSchema {
    static let schemaName = "PushCertificate"
    let topic: String
    let expiresAt: Date
    let fingerprint: String
    /// Within 30 days of its end: renew it in Apple's Push Certificates Portal.
    let renewalDue: Bool

    init(_ stored: StoredPushCertificate, now: Date = Date()) {
        topic = stored.topic
        expiresAt = stored.notAfter
        fingerprint = stored.fingerprint
        renewalDue = stored.notAfter.timeIntervalSince(now) < PushCertificateStore.renewalWarning
    }
}

/// The push certificate sent as the body.
enum PushCertificateUpload: UploadedFormat {
    /// The format is read from the bytes, so a client may also send it as plain octets.
    static let mediaTypes = ["application/x-pem-file", "application/x-pkcs12", "application/octet-stream"]
    static let summary = "The certificate and its private key: PEM, or a PKCS#12 file"
    static let maximumBytes = 64 << 10
}
extension EnrollmentLinks.Standing: DocumentedEnum {}

/// The device CA as the API shows it.
struct DeviceAuthorityAnswer: APIAnswer, NamedSchema {
    static let schemaName = "DeviceAuthority"
    let subject: String
    let expiresAt: Date
    let fingerprint: String

    init(_ authority: CertificateAuthority) {
        subject = authority.subject
        expiresAt = authority.notAfter
        fingerprint = authority.sha256Fingerprint
    }
}

/// The CA certificate and its key, sent as the body.
enum DeviceAuthorityUpload: UploadedFormat {
    static let mediaTypes = ["application/x-pem-file", "application/octet-stream"]
    static let summary = "The CA certificate and its unencrypted private key, PEM, in one file"
    static let maximumBytes = 64 << 10
}
