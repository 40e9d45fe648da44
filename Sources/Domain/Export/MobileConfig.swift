import Foundation

/// A payload of a profile version with the UUID it keeps across versions.
public struct ExportedPayload: Sendable {
    public var payload: Payload
    public var uuid: String

    public init(payload: Payload, uuid: String) {
        self.payload = payload
        self.uuid = uuid
    }
}

/// What an export needs to know about one profile version.
public struct ProfileExportInput: Sendable {
    public var identifier: String
    public var uuid: String
    public var displayName: String
    public var description: String
    public var organization: String
    public var payloads: [ExportedPayload]
    /// The PayloadType of the dictionary that carries the SDK payloads.
    public var vendorPayloadType: String

    public init(identifier: String, uuid: String, displayName: String, description: String, organization: String,
                payloads: [ExportedPayload], vendorPayloadType: String = "com.payloadconsole.sdk") {
        self.identifier = identifier
        self.uuid = uuid
        self.displayName = displayName
        self.description = description
        self.organization = organization
        self.payloads = payloads
        self.vendorPayloadType = vendorPayloadType
    }
}

/// The `.mobileconfig` property list: Apple's top-level keys, one dictionary per Apple payload,
/// and one vendor dictionary carrying every SDK payload.
public enum MobileConfig {
    public static func propertyList(for input: ProfileExportInput) -> PropertyList {
        var content: [PropertyList] = []
        for exported in input.payloads {
            guard let apple = exported.payload.settings as? any ApplePayloadSettings else { continue }
            let type = Swift.type(of: apple)
            content.append(.dictionary(
                [("PayloadType", .string(type.applePayloadType)), ("PayloadVersion", .integer(1)),
                 ("PayloadIdentifier", .string("\(input.identifier).\(type.identifierSuffix)")), ("PayloadUUID", .string(exported.uuid)),
                 ("PayloadDisplayName", .string(type.kind.displayName))]
                + apple.appleKeys))
        }
        let sdk = input.payloads.filter { ($0.payload.settings as? any SDKPayloadSettings).map { Swift.type(of: $0).travelsInMobileConfig } ?? false }
        if let first = sdk.first {
            content.append(.dictionary(
                [("PayloadType", .string(input.vendorPayloadType)), ("PayloadVersion", .integer(1)),
                 ("PayloadIdentifier", .string("\(input.identifier).sdk")), ("PayloadUUID", .string(first.uuid)),
                 ("PayloadDisplayName", .string("SDK settings"))]
                + sdk.compactMap { SDKProfile.entry(for: $0.payload) }))
        }
        return .dictionary([
            ("PayloadType", .string("Configuration")),
            ("PayloadVersion", .integer(1)),
            ("PayloadIdentifier", .string(input.identifier)),
            ("PayloadUUID", .string(input.uuid)),
            ("PayloadDisplayName", .string(input.displayName)),
            ("PayloadDescription", .string(input.description)),
        ] + (input.organization.isEmpty ? [] : [("PayloadOrganization", .string(input.organization))]) + [
            ("PayloadContent", .array(content)),
        ])
    }

    public static func xml(for input: ProfileExportInput) -> String {
        propertyList(for: input).xmlDocument()
    }

    /// An Apple payload under Apple's key names, with its PayloadType, as the JSON API shows it;
    /// nil for SDK payloads.
    public static func appleDictionary(for payload: Payload) -> PropertyList? {
        guard let apple = payload.settings as? any ApplePayloadSettings else { return nil }
        return .dictionary([("PayloadType", .string(type(of: apple).applePayloadType))] + apple.appleKeys)
    }
}
