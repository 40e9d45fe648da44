import Foundation
import Signing
import Testing

/// CertRep answers to scepclient's real request, checked with the openssl command: signed by
/// the CA, the SCEP attributes echoed, and on success a certificate for the request's key that
/// only the requester can decrypt.
@Suite(.enabled(if: Tools.hasOpenSSL)) struct SCEPResponseTests {
    @Test func aSuccessIsSignedByTheCAAndDecryptsToTheIssuedCertificate() throws {
        let authority = try SCEPFixture.authority()
        let request = try SCEPFixture.request()
        let csr = try #require(request.certificateRequest)
        let issued = try authority.issue(csr, subjectCommonName: "device-1", now: SCEPFixture.now)
        let tools = Tools()
        defer { tools.remove() }
        try tools.write(try SCEPResponse.success(issued: issued, for: request, authority: authority), to: "response.der")
        try tools.write(authority.certificatePEM, to: "ca.pem")
        let verify = [Tools.openssl, "cms", "-verify", "-binary", "-inform", "DER", "-in", "response.der", "-CAfile", "ca.pem",
                      "-purpose", "any", "-out", "envelope.der"]
        #expect(tools.run(verify) == 0, "\(tools.lastError)")
        let decrypt = [Tools.openssl, "cms", "-decrypt", "-binary", "-inform", "DER", "-in", "envelope.der",
                       "-recip", SCEPFixture.path("Fixtures/scep-client-signer.pem"), "-inkey", SCEPFixture.path("Fixtures/scep-client-key.pem"),
                       "-out", "certificates.der"]
        #expect(tools.run(decrypt) == 0, "\(tools.lastError)")
        #expect(tools.run([Tools.openssl, "pkcs7", "-inform", "DER", "-in", "certificates.der", "-print_certs", "-out", "issued.pem"]) == 0)
        let inside = try CertificateDetails.read(try tools.read("issued.pem"))
        #expect(inside.der == issued.der)
        #expect(inside.publicKeySHA256 == Data(SHA256Digest.bytes(of: csr.publicKeyDER)).base64EncodedString())

        let attributes = try printedAttributes(tools)
        #expect(attributes.contains("PRINTABLESTRING:3"))  // messageType CertRep
        #expect(attributes.contains("PRINTABLESTRING:0"))  // pkiStatus SUCCESS
        #expect(attributes.contains("PRINTABLESTRING:\(request.transactionID)"))
        #expect(attributes.contains("sha256"))
        let nonces = try octetAttributes(tools)
        #expect(nonces["2.16.840.1.113733.1.9.6"] == request.senderNonce)  // recipientNonce
        #expect(nonces["2.16.840.1.113733.1.9.5"]?.count == 16)
        #expect(nonces["2.16.840.1.113733.1.9.5"] != request.senderNonce)
    }

    @Test func aFailureCarriesTheStatusAndReason() throws {
        let authority = try SCEPFixture.authority()
        let request = try SCEPFixture.request()
        let tools = Tools()
        defer { tools.remove() }
        try tools.write(try SCEPResponse.failure(.badMessageCheck, for: request, authority: authority), to: "response.der")
        try tools.write(authority.certificatePEM, to: "ca.pem")
        let verify = [Tools.openssl, "cms", "-verify", "-binary", "-inform", "DER", "-in", "response.der", "-CAfile", "ca.pem",
                      "-purpose", "any", "-out", "content.der"]
        #expect(tools.run(verify) == 0, "\(tools.lastError)")
        #expect(try tools.read("content.der").isEmpty)
        let attributes = try printedAttributes(tools)
        #expect(attributes.contains("PRINTABLESTRING:2"))  // pkiStatus FAILURE
        #expect(attributes.contains("PRINTABLESTRING:1"))  // failInfo badMessageCheck
    }

    @Test func aDegenerateSignedDataCarriesTheChain() throws {
        let first = try SCEPFixture.authority(), second = CertificateAuthorityTests.authority
        let tools = Tools()
        defer { tools.remove() }
        try tools.write(try SCEPResponse.degenerateCertificates([first.certificateDER, second.certificateDER]), to: "chain.p7")
        #expect(tools.run([Tools.openssl, "pkcs7", "-inform", "DER", "-in", "chain.p7", "-print_certs", "-out", "chain.pem"]) == 0)
        let text = String(decoding: try tools.read("chain.pem"), as: UTF8.self)
        #expect(text.contains("SCEP Fixture CA") && text.contains("Test Device CA"))
        #expect(throws: SCEPError.self) { try SCEPResponse.degenerateCertificates([[0x30, 0x00]]) }
    }

    /// The OCTET STRING attributes of response.der by OID, read from `openssl asn1parse`.
    private func octetAttributes(_ tools: Tools) throws -> [String: [UInt8]] {
        // asn1parse prints to standard output, which `Tools.run` discards; the shell keeps it.
        let shell = ["/bin/sh", "-c", "\(Tools.openssl) asn1parse -inform DER -in response.der > parsed.txt"]
        guard tools.run(shell) == 0 else { throw ToolFailure(message: tools.lastError) }
        let lines = String(decoding: try tools.read("parsed.txt"), as: UTF8.self).split(separator: "\n")
        var found: [String: [UInt8]] = [:]
        for (index, line) in lines.enumerated() where line.contains(":2.16.840.1.113733.1.9.") && index + 2 < lines.count {
            let oid = String(line.split(separator: ":").last ?? "")
            guard let hex = lines[index + 2].components(separatedBy: "[HEX DUMP]:").last, lines[index + 2].contains("OCTET STRING") else { continue }
            let digits = Array(hex.utf8)
            found[oid] = stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
        }
        return found
    }

    /// The signed attributes as `openssl cms -cmsout -print` shows them.
    private func printedAttributes(_ tools: Tools) throws -> String {
        let print = [Tools.openssl, "cms", "-cmsout", "-print", "-inform", "DER", "-in", "response.der", "-out", "printed.txt"]
        guard tools.run(print) == 0 else { throw ToolFailure(message: tools.lastError) }
        return String(decoding: try tools.read("printed.txt"), as: UTF8.self)
    }
}
