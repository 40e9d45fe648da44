import Foundation
import Domain

/// JSON Schemas for the text fields of API bodies, written to accept what the domain rules
/// (`CatalogAppDraft`, `DeviceDraft`, `GroupDraft`, `ProfileRules`, `PlainText`, `BundleID`)
/// accept, so that a client can check a body before sending it and the robustness suite can
/// hold the server to its document.
extension OpenAPIDocument {
    /// Unicode's White_Space characters: trimmed from both ends of a field before it is checked.
    static let whitespace = #"\t\n\u000B\u000C\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000"#
    /// What no stored text may hold (`PlainText`): C0 controls, DEL and the XML noncharacters.
    static let controls = #"\u0000-\u001F\u007F\uFFFE\uFFFF"#
    /// The same, without tab and line breaks: what text that may span lines must not hold.
    static let controlsBesideLineBreaks = #"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF"#

    /// One line of text, trimmed, then `range` characters long with no control character.
    static func singleLine(_ range: ClosedRange<Int>) -> [String: Any] {
        let edge = "[^\(whitespace)\(controls)]"
        let inner = "[^\(controls)]"
        let body = "\(edge)(?:\(inner){0,\(max(0, range.upperBound - 2))}\(edge))?"
        let text = range.lowerBound == 0 ? "(?:\(body))?" : body
        return ["type": "string", "pattern": "^[\(whitespace)]*\(text)[\(whitespace)]*$",
                "description": "\(range.lowerBound == 0 ? "Up to" : "1 to") \(range.upperBound) characters after trimming; no control characters"]
    }

    /// A field that must match `core` once trimmed.
    static func trimmed(_ core: String, maxLength: Int? = nil, description: String) -> [String: Any] {
        var schema: [String: Any] = ["type": "string", "pattern": "^[\(whitespace)]*\(core)[\(whitespace)]*$", "description": description]
        if let maxLength { schema["maxLength"] = maxLength }
        return schema
    }

    /// A field that may be left out; null means the same.
    static func optional(_ schema: [String: Any], default value: Any? = nil) -> [String: Any] {
        var copy = schema
        if let type = schema["type"] as? String { copy["type"] = [type, "null"] }
        if let value { copy["default"] = value }
        return copy
    }

    static let bundleIDPattern = #"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"#

    /// A version as `AppleVersion` reads it: one to four whole numbers joined by dots.
    static var appleVersion: [String: Any] {
        ["type": "string", "maxLength": AppleVersion.maximumLength, "pattern": #"^[0-9]{1,9}(\.[0-9]{1,9}){0,3}$"#]
    }

    static var bundleID: [String: Any] {
        trimmed(bundleIDPattern, maxLength: BundleID.maximumLength, description: "Reverse-DNS, such as com.example.app")
    }

    /// Text of any length in which tab and line breaks are the only control characters.
    static var plainText: [String: Any] {
        ["type": "string", "pattern": "^[^\(controlsBesideLineBreaks)]*$",
         "description": "Tab and line breaks allowed, other control characters not"]
    }

    static var multiLine: [String: Any] {
        plainText.merging(["maxLength": ProfileRules.maximumDescriptionLength, "description": "Markdown; tab and line breaks allowed, other control characters not"]) { $1 }
    }

    static var textSchemas: [String: Any] { [
        "AppInput": object(required: ["name", "bundleID"], [
            "name": singleLine(1...80), "bundleID": bundleID, "isManaged": optional(["type": "boolean"], default: true),
            "isSDKBuilt": optional(["type": "boolean"], default: false), "hasAssessmentEntitlement": optional(["type": "boolean"], default: false),
            "iconColor": optional(trimmed("(?:#[0-9A-Fa-f]{6})?", description: "#rrggbb, or empty for a colour from the name"), default: ""),
            "role": ["type": ["string", "null"], "enum": AppRole.allCases.map(\.rawValue) + [NSNull()],
                     "description": "browser or mail: the managed browser or mail app DLP keeps links in (a managed app only); null or absent for none"],
        ]),
        "GroupInput": object(required: ["name"], ["name": singleLine(1...GroupDraft.maximumNameLength), "parentID": optionalID]),
        "DeviceInput": object(required: ["name", "model", "osVersion", "serialNumber", "udid"], [
            "name": singleLine(1...80), "model": ["type": "string", "enum": DeviceModel.allCases.map(\.rawValue)],
            "osVersion": trimmed(#"[0-9]{1,3}(?:\.[0-9]{1,3}){1,2}"#, description: "Such as 17.4 or 18.1.2"),
            "serialNumber": trimmed("[A-Za-z0-9]{8,14}", description: "8 to 14 letters and digits"),
            "udid": trimmed("(?:[0-9A-Fa-f]{40}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16})", description: "40 hex digits, or 8 and 16 joined by a hyphen"),
            "isSupervised": optional(["type": "boolean"], default: false), "owner": optional(singleLine(0...120), default: ""),
            "groupID": optionalID, "installedApps": optional(["type": "array", "items": bundleID], default: [String]()),
        ]),
    ] }
}
