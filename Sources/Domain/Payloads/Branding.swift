/// A colour as the SDK profile carries it: red, green, blue and alpha from 0 to 255.
public struct RGBAColor: Codable, Equatable, Sendable {
    public var red: Int
    public var green: Int
    public var blue: Int
    public var alpha: Int

    public init(red: Int, green: Int, blue: Int, alpha: Int = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `#rrggbb` (alpha is not part of it).
    public var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + [red, green, blue].map { value in
            let byte = max(0, min(255, value))
            return String([digits[byte >> 4], digits[byte & 15]])
        }.joined()
    }

    /// Reads `#rrggbb`; alpha is opaque.
    public init?(hex: String) {
        let text = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard text.count == 6, let value = Int(text, radix: 16) else { return nil }
        self.init(red: (value >> 16) & 255, green: (value >> 8) & 255, blue: value & 255)
    }
}

/// An uploaded image the branding payload refers to; the bytes are stored by the app layer.
public struct ImageReference: Codable, Equatable, Sendable {
    public var id: String
    public var mediaType: String
    public var width: Int
    public var height: Int
    public var byteCount: Int

    public init(id: String, mediaType: String, width: Int, height: Int, byteCount: Int) {
        self.id = id
        self.mediaType = mediaType
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }
}

/// Branding for SDK apps: a highlight colour and logos, 1x and 2x.
public struct Branding: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("branding", displayName: "Branding",
                                         summary: "Gives SDK apps the organisation's colour and logos.",
                                         combination: .nearestGroup, settings: Branding.self)
    public static let maximumImageBytes = 1_048_576
    public static let imageMediaTypes: Set<String> = ["image/png", "image/jpeg"]

    public var enabled: Bool
    public var primaryColor: RGBAColor
    public var appLogo1x: ImageReference?
    public var appLogo2x: ImageReference?
    public var splashLogo1x: ImageReference?
    public var splashLogo2x: ImageReference?

    public init(enabled: Bool = true, primaryColor: RGBAColor = RGBAColor(red: 238, green: 139, blue: 48),
                appLogo1x: ImageReference? = nil, appLogo2x: ImageReference? = nil,
                splashLogo1x: ImageReference? = nil, splashLogo2x: ImageReference? = nil) {
        self.enabled = enabled
        self.primaryColor = primaryColor
        self.appLogo1x = appLogo1x
        self.appLogo2x = appLogo2x
        self.splashLogo1x = splashLogo1x
        self.splashLogo2x = splashLogo2x
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        let components = [("red", primaryColor.red), ("green", primaryColor.green), ("blue", primaryColor.blue), ("alpha", primaryColor.alpha)]
        for (name, value) in components where !(0...255).contains(value) {
            errors["color.\(name)"] = "Each colour value runs from 0 to 255."
        }
        let images = [("appLogo1x", appLogo1x), ("appLogo2x", appLogo2x), ("splashLogo1x", splashLogo1x), ("splashLogo2x", splashLogo2x)]
        for (field, image) in images {
            guard let image else { continue }
            if !Self.imageMediaTypes.contains(image.mediaType) { errors[field] = "Upload a PNG or JPEG image." }
            else if image.byteCount > Self.maximumImageBytes { errors[field] = "Images may be at most 1 MB." }
        }
        return errors
    }
}

extension PayloadKind {
    public static var branding: PayloadKind { Branding.kind }
}

extension Branding: SDKPayloadSettings {
    public static let sdkKey = "Branding"

    public var sdkEntry: PropertyList {
        let color = primaryColor
        var entries: [(String, PropertyList)] = [
            ("EnableBranding", .boolean(enabled)),
            ("Colors", .dictionary([("PrimaryHighlight", .dictionary([
                ("Red", .integer(color.red)), ("Green", .integer(color.green)),
                ("Blue", .integer(color.blue)), ("Alpha", .integer(color.alpha)),
            ]))])),
        ]
        let logos = [("AppLogo_1x", appLogo1x), ("AppLogo_2x", appLogo2x), ("SplashLogo_1x", splashLogo1x), ("SplashLogo_2x", splashLogo2x)]
        for (key, image) in logos { if let image { entries.append((key, .string(image.id))) } }
        return .dictionary(entries)
    }

    /// Never read back: the logos are images stored in the console that exported it.
    public init(sdkEntry entry: SDKEntry) throws {
        throw SDKEntry.Unreadable("Branding's logos are images stored in the console that exported it: set branding in its form.")
    }
}
