import Foundation
import Signing

/// A device as the `Mdm-Signature` tests need one: a key made by openssl, a certificate our
/// CA issued for it (issue → sign → verify), and signatures made the way devices make them,
/// by Python's `cryptography` or the openssl command.
struct DeviceSigner {
    let tools = Tools()
    let certificate: IssuedCertificate

    /// A device whose certificate `authority` issued at `issuedAt` for `days`.
    init(authority: CertificateAuthority, issuedAt now: Date, days: Int = 365) throws {
        let request = try CertificateRequest(der: try tools.makeRequest(commonName: "device-1234"))
        certificate = try authority.issue(request, validFor: days, now: now)
        try tools.write(certificate.der, to: "device.der")
        guard tools.run([Tools.openssl, "x509", "-inform", "DER", "-in", "device.der", "-out", "device.pem"]) == 0 else {
            throw ToolFailure(message: tools.lastError)
        }
    }

    /// A detached PKCS#7 signature by Python's `cryptography` (`PKCS7SignatureBuilder`), over
    /// the exact bytes (`Binary`) as devices sign, or else over the S/MIME canonical form (CRLF
    /// line ends), which is the builder's default.
    func pythonSignature(over body: [UInt8], digest: String, binary: Bool = true) throws -> [UInt8] {
        try tools.write(Self.pythonSigner, to: "sign.py")
        try tools.write(body, to: "body.bin")
        let status = tools.run([Tools.python, "sign.py", "device.pem", "key.pem", "body.bin", digest, binary ? "binary" : "text", "signature.der"])
        guard status == 0 else { throw ToolFailure(message: tools.lastError) }
        return try tools.read("signature.der")
    }

    /// A CMS signature by `openssl cms -sign`: detached unless `attached`, with `extra` flags.
    func opensslSignature(over body: [UInt8], digest: String, attached: Bool = false, extra: [String] = []) throws -> [UInt8] {
        try tools.write(body, to: "body.bin")
        let command = [Tools.openssl, "cms", "-sign", "-binary", "-md", digest, "-in", "body.bin", "-signer", "device.pem",
                       "-inkey", "key.pem", "-outform", "DER", "-out", "signature.der"] + (attached ? ["-nodetach"] : []) + extra
        guard tools.run(command) == 0 else { throw ToolFailure(message: tools.lastError) }
        return try tools.read("signature.der")
    }

    func remove() { tools.remove() }

    private static let pythonSigner = """
        import sys
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.serialization import pkcs7
        certificate_path, key_path, body_path, digest, form, output_path = sys.argv[1:]
        certificate = x509.load_pem_x509_certificate(open(certificate_path, "rb").read())
        key = serialization.load_pem_private_key(open(key_path, "rb").read(), None)
        algorithm = {"sha256": hashes.SHA256(), "sha1": hashes.SHA1()}[digest]
        options = [pkcs7.PKCS7Options.DetachedSignature] + ([pkcs7.PKCS7Options.Binary] if form == "binary" else [])
        signature = (pkcs7.PKCS7SignatureBuilder().set_data(open(body_path, "rb").read())
                     .add_signer(certificate, key, algorithm)
                     .sign(serialization.Encoding.DER, options))
        open(output_path, "wb").write(signature)
        """
}
