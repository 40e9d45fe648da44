import Foundation

/// A `.mobileconfig`: XML, or when signed CMS DER, served as the bytes were made.
struct MobileConfigFile: FileFormat {
    var contentType: String { "application/x-apple-aspen-config" }
    static let summary = "The .mobileconfig (signed bytes are CMS DER, served verbatim)"

    static func content(_ reader: SchemaReader) throws -> [String: OpenAPI.MediaType] {
        binary("application/x-apple-aspen-config")
    }
}

/// An SDK profile: the JSON SDK apps download, under the SDK's own key names.
struct SDKProfileFile: FileFormat {
    var contentType: String { "application/json; charset=utf-8" }
    static let summary = "SDK profile"

    static func content(_ reader: SchemaReader) throws -> [String: OpenAPI.MediaType] {
        ["application/json": OpenAPI.MediaType(schema: .of(.object, description: "The SDK profile, under the SDK's key names"))]
    }
}
