import Foundation
import Signing

/// A real PKIOperation request Debian's `scepclient` sent, with the CA it was encrypted to and
/// the client's own key and temporary certificate (made by `make-scep-fixture.py fixture`).
enum SCEPFixture {
    /// Inside the fixture CA's validity (2026-11-28 to 2036-11-25).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return Array(try Data(contentsOf: url))
    }

    static func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func authority() throws -> CertificateAuthority {
        try CertificateAuthority(certificatePEM: try text("scep-ca.pem"), privateKeyPEM: try text("scep-ca-key.pem"), now: now)
    }

    static func request() throws -> SCEPRequest { try SCEPRequest.parse(try bytes("scep-request.der"), authority: try authority()) }
}
