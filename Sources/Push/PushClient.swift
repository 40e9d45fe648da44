import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Sends MDM wake-ups to Apple's push service: `POST /3/device/<token as hex>` over HTTP/2,
/// authenticated by the push certificate as the TLS client certificate, with the topic in
/// `apns-topic` and `{"mdm": PushMagic}` as the body. One HTTP/2 connection per identity
/// carries many pushes at once (the HTTP client pools it).
public struct PushClient: Sendable {
    /// `https://api.push.apple.com`, or a stand-in's address in tests.
    public let baseURL: String
    private let client: HTTPClient
    public static let timeout: TimeAmount = .seconds(15)

    public init(baseURL: String, client: HTTPClient = .shared) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.client = client
    }

    /// What the push service said.
    public enum Outcome: Sendable, Equatable {
        case delivered
        /// The token no longer reaches the device (`Unregistered`, `BadDeviceToken`): stop pushing to it.
        case tokenDead(reason: String)
        /// Too many requests or a fault on the service's side: try again later.
        case retryLater(reason: String)
        /// Anything else: the request or the certificate is wrong; trying again will not help.
        case refused(status: Int, reason: String)
    }

    public func push(token: [UInt8], pushMagic: String, topic: String, identity: PushIdentity) async -> Outcome {
        var request = HTTPClientRequest(url: "\(baseURL)/3/device/\(Self.hex(token))")
        request.method = .POST
        request.tlsConfiguration = identity.tls
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: "mdm")
        request.headers.add(name: "content-type", value: "application/json")
        let body = (try? JSONSerialization.data(withJSONObject: ["mdm": pushMagic])) ?? Data()
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.timeout)
            let answer = try await response.body.collect(upTo: 16 << 10)
            return Self.outcome(status: Int(response.status.code), body: Data(answer.readableBytesView))
        } catch {
            return .retryLater(reason: "\(error)")
        }
    }

    /// The token as the path spells it, lower-case hex: built as bytes, once per push.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The service answers 200, or a status with `{"reason": …}`.
    static func outcome(status: Int, body: Data) -> Outcome {
        if status == 200 { return .delivered }
        let reason = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["reason"] as? String ?? "HTTP \(status)"
        switch (status, reason) {
        case (410, _), (_, "Unregistered"), (_, "BadDeviceToken"), (_, "DeviceTokenNotForTopic"): return .tokenDead(reason: reason)
        case (429, _), (500..., _): return .retryLater(reason: reason)
        default: return .refused(status: status, reason: reason)
        }
    }
}
