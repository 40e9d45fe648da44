import Domain
import Foundation
import Signing

/// Pinned certificates are described by what OpenSSL reads from their bytes, never by what a
/// form or an API client says about them: every way a certificate-pinning payload comes in
/// passes through here.
enum PinnedCertificates {
    static func read(_ bytes: [UInt8]) -> Result<PinnedCertificate, CertificateDetails.Problem> {
        do {
            let details = try CertificateDetails.read(bytes)
            return .success(PinnedCertificate(der: Data(details.der), subject: details.subject, issuer: details.issuer,
                                              notBefore: details.notBefore, notAfter: details.notAfter,
                                              publicKeySHA256: details.publicKeySHA256))
        } catch {
            return .failure(error)
        }
    }

    /// The payload with each certificate's details read from its DER; other kinds as they are.
    /// A certificate that does not read is an error at `certificates.N`.
    static func settle(_ payload: Payload) -> (payload: Payload, errors: ValidationErrors) {
        guard var pinning = payload.settings(as: CertificatePinning.self) else { return (payload, ValidationErrors()) }
        var errors = ValidationErrors()
        for index in pinning.certificates.indices {
            switch read(Array(pinning.certificates[index].der)) {
            case .success(let certificate): pinning.certificates[index] = certificate
            case .failure(let problem): errors["certificates.\(index)"] = problem.message
            }
        }
        return (Payload(pinning), errors)
    }
}
