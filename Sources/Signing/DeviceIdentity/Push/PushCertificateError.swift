/// Why an uploaded MDM push certificate was refused, in words an admin can act on.
public enum PushCertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCertificate
    case noPrivateKey
    /// The PEM key is encrypted; the console needs it unencrypted (or a .p12 with its password).
    case privateKeyEncrypted
    case keyDoesNotMatchCertificate
    /// The subject's UID is not a `com.apple.mgmt.` topic: another kind of Apple certificate.
    case notAnMDMPushCertificate
    case notPKCS12
    case wrongPassword
    /// OpenSSL failed where it should not (memory, an algorithm missing); the detail is for the log.
    case failed(String)

    public var description: String {
        switch self {
        case .noCertificate: "The file holds no certificate: upload the push certificate from Apple's Push Certificates Portal."
        case .noPrivateKey: "The file holds no private key: add the key the certificate request was made with, or export a .p12 from Keychain Access."
        case .privateKeyEncrypted:
            "The private key is encrypted: remove its passphrase (openssl pkey -in key.pem -out plain.pem) or upload a .p12 with its password."
        case .keyDoesNotMatchCertificate: "The private key does not belong to the push certificate."
        case .notAnMDMPushCertificate:
            "This is not an MDM push certificate: its subject has no com.apple.mgmt. topic. "
                + "Use the certificate from Apple's Push Certificates Portal."
        case .notPKCS12: "The file is not a PKCS#12 (.p12) file."
        case .wrongPassword: "The password does not open this .p12 file."
        case .failed(let detail): "The push certificate could not be read: \(detail)"
        }
    }
}
