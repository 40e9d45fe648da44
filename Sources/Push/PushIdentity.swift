import NIOSSL

/// The TLS client identity the push service knows a sender by (the MDM push certificate and
/// its key), with the trust roots for the push service's own certificate.
public struct PushIdentity: Sendable {
    /// Made once: every connection for this certificate shares it.
    let tls: NIOSSLContext
    /// The certificate's SHA-256 fingerprint: pushes with one identity share connections.
    public let fingerprint: String

    /// `trustRootsPEM` nil trusts the system's roots, as for Apple's service; a test's
    /// stand-in passes its own CA.
    public init(certificatePEM: String, privateKeyPEM: String, fingerprint: String, trustRootsPEM: String? = nil) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { .certificate($0) }
        tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))
        if let trustRootsPEM {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(trustRootsPEM.utf8)))
        }
        tls.applicationProtocols = ["h2"]
        self.tls = try NIOSSLContext(configuration: tls)
        self.fingerprint = fingerprint
    }
}
