import Foundation
import Signing
import Testing

/// PKCS#10 requests as SCEP clients send them: the challenge read whichever string type
/// carries it, and anything unsigned, changed or not a request refused.
@Suite(.enabled(if: Tools.hasOpenSSL)) struct CertificateRequestTests {
    @Test func theSubjectChallengeAndKeyAreRead() throws {
        let tools = Tools()
        defer { tools.remove() }
        let request = try CertificateRequest(der: try tools.makeRequest(commonName: "device", challenge: "s3cret"))
        #expect(request.subject == "CN=device")
        #expect(request.challengePassword == "s3cret")
        #expect(request.publicKeyBits == 2048)
        #expect(request.publicKeyDER.count > 256)
    }

    @Test func aUTF8ChallengeIsReadAndAMissingOneIsNil() throws {
        let tools = Tools()
        defer { tools.remove() }
        #expect(try CertificateRequest(der: try tools.makeRequest(challenge: "pässwort", utf8: true)).challengePassword == "pässwort")
        #expect(try CertificateRequest(der: try tools.makeRequest()).challengePassword == nil)
    }

    @Test func aChangedOrMalformedRequestIsRefused() throws {
        let tools = Tools()
        defer { tools.remove() }
        let der = try tools.makeRequest(commonName: "device-aaaa", challenge: "s3cret")
        // Change one letter of the common name: the signature no longer matches.
        let start = try #require((0..<der.count - 4).first { Array(der[$0..<$0 + 4]) == Array("aaaa".utf8) })
        var changed = der
        changed[start] = UInt8(ascii: "b")
        #expect(throws: CertificateAuthorityError.requestSignatureInvalid) { try CertificateRequest(der: changed) }
        #expect(throws: CertificateAuthorityError.invalidRequest) { try CertificateRequest(der: []) }
        #expect(throws: CertificateAuthorityError.invalidRequest) { try CertificateRequest(der: Array(der.dropLast())) }
        #expect(throws: CertificateAuthorityError.invalidRequest) { try CertificateRequest(der: der + [0]) }
        #expect(throws: CertificateAuthorityError.invalidRequest) { try CertificateRequest(der: Array("hello".utf8)) }
    }

    @Test func aWeakKeyIsNotIssued() throws {
        let tools = Tools()
        defer { tools.remove() }
        let request = try CertificateRequest(der: try tools.makeRequest(bits: 1024))
        #expect(throws: CertificateAuthorityError.weakKey(bits: 1024)) { try CertificateAuthorityTests.authority.issue(request) }
    }
}
