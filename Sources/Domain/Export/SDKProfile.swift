import Foundation

/// The SDK profile an SDK-built app downloads after start-up: the SDK payloads (and the
/// managed app configuration) under the key names the SDK reads.
public enum SDKProfile {
    public static func propertyList(for input: ProfileExportInput) -> PropertyList {
        .dictionary([
            ("ProfileIdentifier", .string(input.identifier)),
            ("ProfileUUID", .string(input.uuid)),
            ("DisplayName", .string(input.displayName)),
        ] + input.payloads.compactMap { entry(for: $0.payload) })
    }

    public static func json(for input: ProfileExportInput) -> Data {
        propertyList(for: input).jsonData()
    }

    /// One SDK payload as a named dictionary; nil for Apple payloads.
    static func entry(for payload: Payload) -> (String, PropertyList)? {
        guard let settings = payload.settings as? any SDKPayloadSettings else { return nil }
        return (type(of: settings).sdkKey, settings.sdkEntry)
    }
}
