import Foundation
import Signing
import Testing

/// The whole exchange with an independent client: Debian's `scepclient` asks through
/// `make-scep-fixture.py relay`, this test answers with `SCEPRequest` and `SCEPResponse`,
/// and the client must accept the answer and store the certificate.
@Suite(.enabled(if: Tools.hasSCEPClient)) struct SCEPRoundTripTests {
    @Test func scepclientAcceptsTheCertificateWeIssue() async throws {
        let authority = try SCEPFixture.authority()
        let tools = Tools()
        defer { tools.remove() }
        try tools.write(authority.certificateDER, to: "ca.der")
        // scepclient's key from the fixture: it makes a new 2048-bit key only when none is
        // there, which on a busy two-core machine took longer than the exchange itself.
        try tools.write(try SCEPFixture.bytes("scep-client-key.pem"), to: "client-key.pem")
        let relay = tools.start([Tools.python, SCEPFixture.path("make-scep-fixture.py"), "relay", "--folder", tools.folder.path,
                                 "--ca", "ca.der", "--challenge", "round-trip"])
        #expect(relay > 0)
        let body: [UInt8]
        do {
            // A bound against a client that hangs, not a measure of speed: the whole test suite
            // runs beside it.
            body = try await waitForFile(tools, "request.der", deadline: .seconds(300))
        } catch {
            kill(relay, SIGKILL)
            _ = tools.wait(relay)
            throw error
        }
        let request = try SCEPRequest.parse(body, authority: authority)
        #expect(request.certificateRequest?.challengePassword == "round-trip")
        let issued = try authority.issue(try #require(request.certificateRequest), subjectCommonName: "round-trip-device")
        try tools.write(try SCEPResponse.success(issued: issued, for: request, authority: authority), to: "response.der.part")
        #expect(rename(tools.path("response.der.part"), tools.path("response.der")) == 0)
        #expect(tools.wait(relay) == 0, "scepclient refused the answer: \(tools.lastError)")
        let stored = try CertificateDetails.read(try tools.read("client-cert.pem"))
        #expect(stored.der == issued.der)
    }

    /// Waits for the relay to write `name`, polling; reports what the relay said if it never does.
    private func waitForFile(_ tools: Tools, _ name: String, deadline: Duration) async throws -> [UInt8] {
        let clock = ContinuousClock(), end = clock.now.advanced(by: deadline)
        while clock.now < end {
            if let bytes = try? tools.read(name) { return bytes }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ToolFailure(message: "no \(name) within \(deadline): \(tools.lastError)")
    }
}
