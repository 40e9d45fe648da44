import Foundation
import NIOCore
import NIOPosix

/// Sends MDM wake-ups to Apple's push service: `POST /3/device/<token as hex>` over HTTP/2,
/// authenticated by the push certificate as the TLS client certificate, with the topic in
/// `apns-topic` and `{"mdm": PushMagic}` as the body. One HTTP/2 connection per push
/// certificate carries every push, many at once, each on a stream of its own; a connection
/// that closed (the service closes idle ones) is opened again by the next push.
public struct PushClient: Sendable {
    /// `https://api.push.apple.com`, or a stand-in's address in tests.
    public let baseURL: String
    private let connections: PushConnections
    /// How long a push waits for the service's answer before it is tried again later.
    private let timeout: TimeAmount

    public init(baseURL: String, timeout: TimeAmount = .seconds(15), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.timeout = timeout
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.connections = PushConnections(endpoint: PushEndpoint(baseURL: base), group: group)
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
        var body = ByteBuffer()
        body.writeString(#"{"mdm":"#)
        body.writeBytes((try? JSONEncoder().encode(pushMagic)) ?? Data(#""""#.utf8))
        body.writeString("}")
        let headers = [("apns-topic", topic), ("apns-push-type", "mdm"), ("content-type", "application/json")]
        do {
            let answer = try await connections.send(path: "/3/device/\(Self.hex(token))", headers: headers, body: body, identity: identity, timeout: timeout)
            return Self.outcome(status: answer.status, body: Data(answer.body.readableBytesView))
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
