import Domain
import Foundation
import Signing

/// Certificate pinning: on or off, the hosts one per line, and the pinned certificates — each
/// shown as OpenSSL read it, carried in the form as its DER so that a refused save keeps it
/// without a second upload, and re-read on every submission.
struct CertificatePinningForm: PayloadForm {
    struct Certificate {
        let index: Int
        let der: String
        let subject: String
        let issuer: String
        let validity: String
        let publicKeySHA256: String
        let warning: String?
    }

    var enabled = true
    var hosts = ""
    var certificates: [Certificate] = []
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let pinning = if let value = payload?.settings(as: CertificatePinning.self) { value } else { CertificatePinning() }
        enabled = pinning.enabled
        hosts = LineList.text(pinning.hosts)
        certificates = Self.shown(pinning.certificates)
    }

    init(_ form: FormFields) {
        enabled = form.isChecked("enabled")
        hosts = form["hosts"]
        certificates = Self.shown(Self.kept(form).compactMap { try? PinnedCertificates.read($0).get() })
    }

    /// Reads the uploaded file into the form's certificates; the message when it is not one.
    static func takeUploads(_ files: [String: UploadedFile], into form: inout FormFields) -> ValidationErrors {
        var errors = ValidationErrors()
        guard let file = files["upload"] else { return errors }
        switch PinnedCertificates.read(file.bytes) {
        case .success(let certificate): form.setAll("certificate", form.all("certificate") + [certificate.der.base64EncodedString()])
        case .failure(let problem): errors["upload"] = problem.message
        }
        return errors
    }

    static func submitted(_ form: FormFields) -> Submission {
        var errors = ValidationErrors()
        var certificates: [PinnedCertificate] = []
        for bytes in kept(form) {
            switch PinnedCertificates.read(bytes) {
            case .success(let certificate): certificates.append(certificate)
            case .failure(let problem): errors["certificates"] = problem.message
            }
        }
        let entries = LineList.entries(form["hosts"])
        let pinning = CertificatePinning(enabled: form.isChecked("enabled"), hosts: entries, certificates: certificates)
        let problems = pinning.validate()
        if let message = LineList.message("hosts", in: problems, entries: entries) { errors["hosts"] = message }
        if let message = problems["certificates"] { errors["certificates"] = message }
        return Submission(payload: Payload(pinning), errors: errors)
    }

    /// The certificates the form carries, less those ticked for removal.
    private static func kept(_ form: FormFields) -> [[UInt8]] {
        let removed = Set(form.all("remove"))
        return form.all("certificate").enumerated().compactMap { index, encoded in
            removed.contains(String(index)) ? nil : Data(base64Encoded: encoded).map(Array.init) ?? []
        }
    }

    private static func shown(_ certificates: [PinnedCertificate]) -> [Certificate] {
        let now = Date()
        return certificates.enumerated().map { index, certificate in
            Certificate(index: index, der: certificate.der.base64EncodedString(), subject: certificate.subject, issuer: certificate.issuer,
                        validity: "\(PinnedCertificate.day(certificate.notBefore)) to \(PinnedCertificate.day(certificate.notAfter))",
                        publicKeySHA256: certificate.publicKeySHA256, warning: certificate.expiryWarning(at: now))
        }
    }
}

/// How pages show CertificatePinning payloads; its form is `CertificatePinningForm`.
extension CertificatePinning: PayloadPresentation {
    static var formType: any PayloadForm.Type { CertificatePinningForm.self }

    var summaryLines: [String] {
        let expired = warnings(at: Date()).count
        return [enabled ? "\(Counted.phrase(certificates.count, "certificate")) pinned for \(hosts.joined(separator: ", "))" : "Disabled"]
            + (expired > 0 ? ["\(Counted.phrase(expired, "pinned certificate")) expired"] : [])
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Enabled", value: PayloadFields.yes(enabled)),
         PayloadFields.Field(label: "Pinned hosts", value: hosts.isEmpty ? "None" : hosts.joined(separator: ", "))]
            + certificates.map { certificate in
                PayloadFields.Field(label: "Certificate “\(certificate.subject)”",
                                    value: "key SHA-256 \(certificate.publicKeySHA256), valid to \(PinnedCertificate.day(certificate.notAfter))")
            }
    }
}
