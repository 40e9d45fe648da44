import Foundation
import Signing
import Testing

/// PKIOperation requests: scepclient's real one read in full, and anything else refused
/// with an error, never a crash.
@Suite struct SCEPRequestTests {
    @Test func scepclientsRequestIsReadWithItsChallengeAndAttributes() throws {
        let request = try SCEPFixture.request()
        #expect(request.messageType == .pkcsReq)
        #expect(request.senderNonce.count == 16)
        #expect(!request.transactionID.isEmpty)
        let csr = try #require(request.certificateRequest)
        #expect(csr.challengePassword == "fixture-challenge")
        #expect(csr.subject.contains("CN=fixture-device"))
        #expect(csr.publicKeyBits == 2048)
        // Signed by its temporary certificate, which holds the same key as the request.
        let signer = try CertificateDetails.read(try SCEPFixture.bytes("scep-client-signer.pem"))
        #expect(request.signerCertificateDER == signer.der)
        #expect(signer.publicKeySHA256 == Data(SHA256Digest.bytes(of: csr.publicKeyDER)).base64EncodedString())
    }

    @Test func aRequestEncryptedToAnotherCAIsRefusedByName() throws {
        let other = try CertificateAuthority.generate(commonName: "Other CA", organisation: "Tests", now: SCEPFixture.now)
        #expect(throws: SCEPError.notEncryptedToThisAuthority) { try SCEPRequest.parse(try SCEPFixture.bytes("scep-request.der"), authority: other) }
        #expect(SCEPError.notEncryptedToThisAuthority.description.contains("enrollment profile"))
    }

    @Test func aChangedSignedAttributeBreaksTheSignature() throws {
        var der = try SCEPFixture.bytes("scep-request.der")
        // The messageType attribute: OID 2.16.840.1.113733.1.9.2, then SET { PrintableString "19" }.
        let oid: [UInt8] = [0x06, 0x0A, 0x60, 0x86, 0x48, 0x01, 0x86, 0xF8, 0x45, 0x01, 0x09, 0x02]
        let at = try #require((0..<der.count - oid.count).first { Array(der[$0..<$0 + oid.count]) == oid })
        let value = at + oid.count + 4  // SET tag, length, PrintableString tag, length
        #expect(Array(der[value..<value + 2]) == Array("19".utf8))
        der[value + 1] = UInt8(ascii: "7")  // "17": RenewalReq
        #expect(throws: SCEPError.signatureInvalid) { try SCEPRequest.parse(der, authority: try SCEPFixture.authority()) }
    }

    /// Every prefix of the real request, single bit flips across it, random bytes and nothing:
    /// each is an error (or, for a flip OpenSSL does not notice, a request), never a crash.
    @Test func malformedInputThrowsAndNeverCrashes() throws {
        let der = try SCEPFixture.bytes("scep-request.der")
        let authority = try SCEPFixture.authority()
        #expect(throws: SCEPError.notAPKIMessage) { try SCEPRequest.parse([], authority: authority) }
        #expect(throws: SCEPError.notAPKIMessage) { try SCEPRequest.parse(Array("POST".utf8), authority: authority) }
        #expect(throws: SCEPError.notAPKIMessage) { try SCEPRequest.parse(authority.certificateDER, authority: authority) }
        // Our own answer is signed and well formed, but no request.
        let answer = try SCEPResponse.failure(.badRequest, for: try SCEPFixture.request(), authority: authority)
        #expect(throws: SCEPError.unknownMessageType("3")) { try SCEPRequest.parse(answer, authority: authority) }
        for length in stride(from: 0, to: der.count, by: 7) {
            #expect(throws: SCEPError.self) { try SCEPRequest.parse(Array(der.prefix(length)), authority: authority) }
        }
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for _ in 0..<400 {
            var flipped = der
            flipped[Int.random(in: 0..<der.count, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            if (try? SCEPRequest.parse(flipped, authority: authority)) != nil { accepted += 1 }
        }
        // Bits in unsigned parts (the certificate's own signature, the envelope's encrypted key
        // padding) can flip unnoticed; most flips must be refused.
        #expect(accepted < 100)
        for count in [1, 2, 16, 100, 3000] {
            let noise = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: SCEPError.self) { try SCEPRequest.parse(noise, authority: authority) }
            #expect(throws: SCEPError.self) { try SCEPRequest.parse([0x30, 0x82, 0x09, 0xF0] + noise, authority: authority) }
        }
    }
}
