import Foundation

/// Payloads as the JSON API shows and accepts them. Apple payloads use Apple's own keys
/// (`{"PayloadType": "com.apple.app.lock", "App": {"Identifier": …, "Options": {…}}}`), so what an
/// admin knows from Apple's documentation works here; SDK payloads carry
/// `"PayloadType": "com.payloadconsole.sdk.<kind>"` beside their settings.
public enum PayloadJSON {
    public static let sdkTypePrefix = "com.payloadconsole.sdk."

    public static func payloadType(of kind: PayloadKind) -> String {
        (kind.settingsType as? any ApplePayloadSettings.Type)?.applePayloadType ?? sdkTypePrefix + kind.rawValue
    }

    /// The JSON object for one payload.
    public static func encode(_ payload: Payload) throws -> Data {
        if let apple = MobileConfig.appleDictionary(for: payload) { return apple.jsonData() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(SDKObject(payload: payload))
    }

    /// An SDK payload as one object: its PayloadType beside its settings' own keys. Both ask
    /// the encoder for a keyed container at the same level, which JSONEncoder merges into one
    /// object (as it does for a subclass encoding beside its superclass).
    private struct SDKObject: Encodable {
        let payload: Payload

        private enum Keys: String, CodingKey { case PayloadType }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(PayloadJSON.payloadType(of: payload.kind), forKey: .PayloadType)
            try payload.settings.encode(to: encoder)
        }
    }

    /// A problem with one payload of a request, phrased for the API's error body.
    public struct DecodingProblem: Error, Equatable, Sendable {
        public let message: String
    }

    /// Reads one payload object; the PayloadType says which kind it is.
    public static func decode(_ data: Data) throws(DecodingProblem) -> Payload {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Document.self, from: data).payload
        } catch let error as DecodingError {
            throw DecodingProblem(message: "The payload is not in the expected shape: \(describe(error))")
        } catch {
            throw DecodingProblem(message: "The payload could not be read.")
        }
    }

    /// One payload object as the API shows it, decodable inside a larger body so that a
    /// problem is reported at its full path (`payloads.2.App.Identifier`).
    public struct Document: Decodable, Sendable {
        public let payload: Payload

        private enum Keys: String, CodingKey { case PayloadType }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let type = try container.decode(String.self, forKey: .PayloadType)
            switch type {
            case "com.apple.app.lock":
                payload = Payload(try AppleAppLock(from: decoder).payload)
            case "com.apple.applicationaccess":
                payload = Payload(ASAMAllowlist(appIdentifiers: try AppleRestrictions(from: decoder).autonomousSingleAppModePermittedAppIDs))
            case _ where type.hasPrefix(sdkTypePrefix):
                guard let kind = PayloadKind(rawValue: String(type.dropFirst(sdkTypePrefix.count))), !kind.isApplePayload else { fallthrough }
                payload = try Payload.decodeSettings(of: kind, from: decoder)
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .PayloadType, in: container,
                    debugDescription: "is not a payload type this console knows: use com.apple.app.lock, com.apple.applicationaccess or \(sdkTypePrefix)<kind>.")
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "missing \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default: "unreadable"
        }
    }

    // These mirror Apple's key names exactly.
    private struct AppleRestrictions: Decodable { let autonomousSingleAppModePermittedAppIDs: [String] }

    private struct AppleAppLock: Decodable {
        struct LockedApp: Decodable {
            let Identifier: String
            let Options: [String: Bool]?
            let UserEnabledOptions: [String: Bool]?
        }
        let App: LockedApp

        var payload: SingleAppMode {
            let app = self.App
            var lock = SingleAppMode(appIdentifier: app.Identifier)
            for field in SingleAppMode.optionFields {
                lock.options[keyPath: field.keyPath] = app.Options?[field.appleKey] ?? false
            }
            for field in SingleAppMode.userEnabledOptionFields {
                lock.userEnabledOptions[keyPath: field.keyPath] = app.UserEnabledOptions?[field.appleKey] ?? false
            }
            return lock
        }
    }
}
