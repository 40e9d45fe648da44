import Foundation
import Signing
import Testing

/// Uploaded certificates read by OpenSSL: the names, validity and public-key hash an admin
/// checks before pinning, from PEM or DER; anything else refused with a reason.
@Suite struct CertificateDetailsTests {
    static func file(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Certificates/\(name)")
        return Array(try Data(contentsOf: url))
    }

    func refusal(_ bytes: [UInt8]) -> CertificateDetails.Problem? {
        do {
            _ = try CertificateDetails.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPEMCertificateIsReadWithItsNamesDatesAndKeyHash() throws {
        let details = try CertificateDetails.read(try Self.file("api.pem"))
        #expect(details.subject == "O=Northwind Traders,CN=api.northwind.example")
        #expect(details.issuer == "CN=Northwind Issuing CA,O=Northwind Traders")
        #expect(details.notBefore == Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01T00:00:00Z
        #expect(details.notAfter == Date(timeIntervalSince1970: 2_082_758_400))   // 2036-01-01T00:00:00Z
        // The value `openssl x509 -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64` gives.
        #expect(details.publicKeySHA256 == "VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k=")
    }

    @Test func derAndPEMOfOneCertificateReadTheSame() throws {
        let pem = try CertificateDetails.read(try Self.file("api.pem"))
        let der = try CertificateDetails.read(try Self.file("api.der"))
        #expect(pem == der)
        #expect(der.der == (try Self.file("api.der")))
    }

    @Test func aRenewedCertificateWithTheSameKeyHasTheSameKeyHash() throws {
        let original = try CertificateDetails.read(try Self.file("api.pem"))
        let renewed = try CertificateDetails.read(try Self.file("api-renewed.pem"))
        let interceptor = try CertificateDetails.read(try Self.file("interceptor.pem"))
        #expect(renewed.publicKeySHA256 == original.publicKeySHA256 && renewed.der != original.der)
        #expect(interceptor.publicKeySHA256 != original.publicKeySHA256)
        #expect(interceptor.subject.contains("CN=api.northwind.example"))
    }

    @Test func anExpiredCertificateStillReadsWithItsDates() throws {
        let details = try CertificateDetails.read(try Self.file("expired.pem"))
        #expect(details.notAfter == Date(timeIntervalSince1970: 1_609_459_200))  // 2021-01-01
    }

    @Test func whatIsNotOneCertificateIsRefused() throws {
        let pem = try Self.file("api.pem")
        #expect(refusal([]) == .empty)
        #expect(refusal(Array(repeating: 0x30, count: CertificateDetails.maximumBytes + 1)) == .tooLarge)
        #expect(refusal(Array("hello".utf8)) == .notACertificate)
        #expect(refusal(Array("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n".utf8)) == .notACertificate)
        #expect(refusal(pem + (try Self.file("expired.pem"))) == .severalCertificates)
        // A truncated DER, and a DER with bytes after the certificate.
        let der = try Self.file("api.der")
        #expect(refusal(Array(der.prefix(der.count - 10))) == .notACertificate)
        #expect(refusal(der + [0, 1, 2]) == .notACertificate)
        // A PEM whose base64 is damaged.
        var damaged = String(decoding: pem, as: UTF8.self)
        damaged = damaged.replacingOccurrences(of: "MIIC", with: "M!!C")
        #expect(refusal(Array(damaged.utf8)) == .notACertificate)
    }
}
