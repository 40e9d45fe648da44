import Foundation
import NIOCore
@testable import Push
import Testing

/// The push client against a push service stand-in speaking HTTP/2 over TLS in this process:
/// what the console relies on when it wakes devices — the request Apple expects, each answer
/// read as what to do next, and pushes that keep going when the service resets streams, closes
/// the connection or falls silent.
@Suite struct PushClientTests {
    static let topic = "com.apple.mgmt.External.6b1c0d5e-31a7-4c5d-9b0e-2f1e3c4a5b6d"
    let identity = try! PushIdentity(certificatePEM: PushServiceStandIn.pushPEM, privateKeyPEM: PushServiceStandIn.pushPEM,
                                     fingerprint: "push", trustRootsPEM: PushServiceStandIn.standInPEM)
    let token: [UInt8] = Array(0..<32)

    private func push(_ client: PushClient, token: [UInt8]? = nil, magic: String = "magic") async -> PushClient.Outcome {
        await client.push(token: token ?? self.token, pushMagic: magic, topic: Self.topic, identity: identity)
    }

    @Test func aPushIsTheRequestApplesServiceExpects() async throws {
        let service = try await PushServiceStandIn { _ in .answer(status: 200, reason: nil) }
        defer { Task { try await service.stop() } }
        let client = PushClient(baseURL: service.url + "/")
        #expect(await push(client, magic: #"6F1E "quoted" magic"#) == .delivered)
        let request = try #require(service.received.first)
        #expect(request.path == "/3/device/000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        #expect(request.headers[":method"] == "POST")
        #expect(request.headers[":authority"] == "127.0.0.1:\(service.port)")
        #expect(request.headers["apns-topic"] == Self.topic)
        #expect(request.headers["apns-push-type"] == "mdm")
        let body = try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: String]
        #expect(body == ["mdm": #"6F1E "quoted" magic"#])
    }

    @Test func eachAnswerSaysWhatToDoNext() async throws {
        let service = try await PushServiceStandIn { path in
            switch path.suffix(2) {
            case "01": .answer(status: 410, reason: "Unregistered")
            case "02": .answer(status: 400, reason: "BadDeviceToken")
            case "03": .answer(status: 429, reason: "TooManyRequests")
            case "04": .answer(status: 503, reason: "ServiceUnavailable")
            case "05": .answer(status: 403, reason: "BadCertificateEnvironment")
            default: .answer(status: 200, reason: nil)
            }
        }
        defer { Task { try await service.stop() } }
        let client = PushClient(baseURL: service.url)
        #expect(await push(client, token: [1]) == .tokenDead(reason: "Unregistered"))
        #expect(await push(client, token: [2]) == .tokenDead(reason: "BadDeviceToken"))
        #expect(await push(client, token: [3]) == .retryLater(reason: "TooManyRequests"))
        #expect(await push(client, token: [4]) == .retryLater(reason: "ServiceUnavailable"))
        #expect(await push(client, token: [5]) == .refused(status: 403, reason: "BadCertificateEnvironment"))
        #expect(await push(client, token: [6]) == .delivered)
        // Every push went over one connection.
        #expect(service.connections == 1)
    }

    /// Counted as a server counts an attacker's resets, a reset after each answer closed the
    /// connection every 200 pushes.
    @Test func pushesGoOnWhenTheServiceResetsEachStreamAfterAnswering() async throws {
        let service = try await PushServiceStandIn { _ in .answerThenReset }
        defer { Task { try await service.stop() } }
        let client = PushClient(baseURL: service.url)
        let outcomes = await withTaskGroup(of: PushClient.Outcome.self) { group in
            for index in 0..<600 {
                group.addTask { await push(client, token: [UInt8(index & 0xFF), UInt8(index >> 8)]) }
            }
            return await group.reduce(into: [PushClient.Outcome]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .delivered }.count == 600, "\(Set(outcomes.filter { $0 != .delivered }.map { "\($0)" }))")
        #expect(service.connections == 1)
    }

    @Test func aClosedConnectionIsOpenedAgainByTheNextPush() async throws {
        let service = try await PushServiceStandIn { path in path.hasSuffix("ff") ? .closeConnection : .answer(status: 200, reason: nil) }
        defer { Task { try await service.stop() } }
        let client = PushClient(baseURL: service.url)
        #expect(await push(client, token: [1]) == .delivered)
        guard case .retryLater = await push(client, token: [0xFF]) else { Issue.record("a push on a connection that closed is to be tried again"); return }
        #expect(await push(client, token: [2]) == .delivered)
        #expect(service.connections == 2)
    }

    @Test func aSilentServiceIsGivenUpOnAndTriedAgainLater() async throws {
        let service = try await PushServiceStandIn { _ in .silence }
        defer { Task { try await service.stop() } }
        let client = PushClient(baseURL: service.url, timeout: .milliseconds(300))
        #expect(await push(client) == .retryLater(reason: "the push service did not answer in time"))
    }

    @Test func aPushARefusedCertificateCarriesIsTriedAgainLater() async throws {
        let service = try await PushServiceStandIn { _ in .answer(status: 200, reason: nil) }
        defer { Task { try await service.stop() } }
        // The stand-in trusts only the push certificate; the stand-in's own is another.
        let stranger = try PushIdentity(certificatePEM: PushServiceStandIn.standInPEM, privateKeyPEM: PushServiceStandIn.standInPEM,
                                        fingerprint: "stranger", trustRootsPEM: PushServiceStandIn.standInPEM)
        let outcome = await PushClient(baseURL: service.url, timeout: .seconds(5)).push(token: token, pushMagic: "m", topic: Self.topic, identity: stranger)
        // Tried again later, with the TLS error as the reason when it arrives before the close.
        guard case .retryLater = outcome else { Issue.record("\(outcome)"); return }
        #expect(service.received.isEmpty)
    }

    @Test func nothingAnswersWhereNoServiceListens() async throws {
        let client = PushClient(baseURL: "https://127.0.0.1:1", timeout: .seconds(2))
        guard case .retryLater = await push(client) else { Issue.record("an unreachable service is to be tried again"); return }
        let notHTTPS = PushClient(baseURL: "http://127.0.0.1:1")
        #expect(await push(notHTTPS) == .retryLater(reason: "the push service's address is not an https:// address"))
    }

    @Test(arguments: [
        ("https://api.push.apple.com", "api.push.apple.com", 443, "api.push.apple.com"),
        ("https://api.sandbox.push.apple.com:2197/", "api.sandbox.push.apple.com", 2197, "api.sandbox.push.apple.com:2197"),
        ("https://127.0.0.1:8186", "127.0.0.1", 8186, "127.0.0.1:8186"),
        ("https://[::1]:8443", "::1", 8443, "[::1]:8443"),
    ])
    func theServicesAddressIsRead(url: String, host: String, port: Int, authority: String) throws {
        let endpoint = try #require(PushEndpoint(baseURL: url))
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.authority == authority)
    }

    @Test(arguments: ["http://api.push.apple.com", "https://", "https://host:port", "https://host:0", "https://[::1"])
    func anAddressThatIsNotAServiceIsRefused(url: String) {
        #expect(PushEndpoint(baseURL: url) == nil)
    }
}
