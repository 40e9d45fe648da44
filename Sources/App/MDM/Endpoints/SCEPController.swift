import Foundation
import Hummingbird
import Logging
import Signing
import Storage

/// The console's SCEP endpoint (RFC 8894), which the enrollment profile's identity payload
/// asks for the device's certificate: GetCACaps, GetCACert, and PKIOperation by POST. A
/// certificate is issued only for a PKCSReq carrying an unused, unexpired challenge of an
/// enrollment link, and is recorded with the link's group before it is answered; any other
/// request gets a CertRep FAILURE and nothing is issued.
struct SCEPController {
    let authority: DeviceAuthorityStore
    let links: EnrollmentLinks
    let now: @Sendable () -> Date

    /// POST for PKIOperation, SHA-256 and AES for the messages, and the RFC's own behaviour.
    static let capabilities = ["POSTPKIOperation", "SHA-256", "AES", "SCEPStandard"]
    /// A SCEP request is a few kilobytes: a CSR, a certificate and their envelopes.
    static let maximumBytes = 64 << 10
    /// How long a device's identity certificate is valid: enrolling again before then is the
    /// only way to renew it.
    static let certificateDays = 5 * 365

    func register(on routes: MDMRoutes) {
        routes.on(.get, "scep", access: .anyone) { request, _ in try await get(request) }
        routes.on(.post, "scep", access: .anyone) { request, context in try await pkiOperation(request, context) }
    }

    func get(_ request: Request) async throws -> Response {
        switch request.uri.queryParameters["operation"].map(String.init) {
        case "GetCACaps":
            return Response(status: .ok, headers: [.contentType: "text/plain"],
                            body: .init(byteBuffer: ByteBuffer(string: Self.capabilities.joined(separator: "\n"))))
        case "GetCACert":
            let ca = try await authority.current()
            return Response(status: .ok, headers: [.contentType: "application/x-x509-ca-cert"],
                            body: .init(byteBuffer: ByteBuffer(bytes: ca.certificateDER)))
        case "PKIOperation":
            throw MDMRefusal(.methodNotAllowed, "Send PKIOperation by POST (the server lists POSTPKIOperation).")
        case let other:
            throw MDMRefusal(.badRequest, "operation must be GetCACaps, GetCACert or PKIOperation" + (other.map { ", not “\($0.prefix(40))”" } ?? ""))
        }
    }

    func pkiOperation(_ request: Request, _ context: MDMRequestContext) async throws -> Response {
        guard request.uri.queryParameters["operation"] == "PKIOperation" else {
            throw MDMRefusal(.badRequest, "POST is for operation=PKIOperation.")
        }
        var request = request
        let body = Array(try await request.collectBody(upTo: Self.maximumBytes).readableBytesView)
        let ca = try await authority.current()
        let scep: SCEPRequest
        do {
            scep = try SCEPRequest.parse(body, authority: ca)
        } catch {
            // Without a readable request there is no one to address a CertRep to.
            throw MDMRefusal(.badRequest, error.description, logged: true)
        }
        let (answer, refusal) = try await answer(scep, authority: ca)
        if let refusal {
            // A FAILURE is an answer, not an error, to the device; to an admin a run of them is
            // someone trying links that are used up, expired or made up.
            // The transaction id is the device's text: letters and digits only reach the log.
            let transaction = scep.transactionID.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(64)
            context.logger.warning("SCEP request refused", metadata: ["reason": "\(refusal)", "transaction": "\(transaction)"])
        }
        return Response(status: .ok, headers: [.contentType: "application/x-pki-message"], body: .init(byteBuffer: ByteBuffer(bytes: answer)))
    }

    /// The CertRep, and why it is a FAILURE when it is one.
    private func answer(_ scep: SCEPRequest, authority ca: CertificateAuthority) async throws -> (certRep: [UInt8], refusal: String?) {
        guard scep.messageType == .pkcsReq, let csr = scep.certificateRequest else {
            return (try SCEPResponse.failure(.badRequest, for: scep, authority: ca), "not a certificate request (PKCSReq)")
        }
        guard let challenge = csr.challengePassword, !challenge.isEmpty else {
            return (try SCEPResponse.failure(.badRequest, for: scep, authority: ca), "no challenge password")
        }
        let time = now()
        let issued: IssuedCertificate
        do {
            // The console names the certificate: a device cannot choose whom it claims to be.
            issued = try ca.issue(csr, subjectCommonName: "Payload Console device", validFor: Self.certificateDays, now: time)
        } catch .weakKey(let bits) {
            return (try SCEPResponse.failure(.badAlg, for: scep, authority: ca), "a \(bits)-bit key (2048 at least)")
        }
        guard try await links.recordIssue(of: issued, challenge: challenge) else {
            return (try SCEPResponse.failure(.badRequest, for: scep, authority: ca), "the challenge is no unused, unexpired enrollment link's")
        }
        return (try SCEPResponse.success(issued: issued, for: scep, authority: ca), nil)
    }
}
