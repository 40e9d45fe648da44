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
    static func singleLine(_ range: ClosedRange<Int>) -> JSONSchema {
        let edge = "[^\(whitespace)\(controls)]"
        let inner = "[^\(controls)]"
        let body = "\(edge)(?:\(inner){0,\(max(0, range.upperBound - 2))}\(edge))?"
        let text = range.lowerBound == 0 ? "(?:\(body))?" : body
        return JSONSchema(types: [.string], description: "\(range.lowerBound == 0 ? "Up to" : "1 to") \(range.upperBound) characters after trimming; no control characters",
                          pattern: "^[\(whitespace)]*\(text)[\(whitespace)]*$")
    }

    /// A field that must match `core` once trimmed.
    static func trimmed(_ core: String, maxLength: Int? = nil, description: String) -> JSONSchema {
        JSONSchema(types: [.string], description: description, pattern: "^[\(whitespace)]*\(core)[\(whitespace)]*$", maxLength: maxLength)
    }

    /// A field that may be left out (or null), taking `value` then.
    static func optional(_ schema: JSONSchema, default value: JSONValue? = nil) -> JSONSchema {
        var copy = schema.orNull
        copy.defaultValue = value
        return copy
    }

    static let bundleIDPattern = #"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"#

    /// A version as `AppleVersion` reads it: one to four whole numbers joined by dots.
    static var appleVersion: JSONSchema {
        JSONSchema(types: [.string], pattern: #"^[0-9]{1,9}(\.[0-9]{1,9}){0,3}$"#, maxLength: AppleVersion.maximumLength)
    }

    static var bundleID: JSONSchema {
        trimmed(bundleIDPattern, maxLength: BundleID.maximumLength, description: "Reverse-DNS, such as com.example.app")
    }

    /// Text of any length in which tab and line breaks are the only control characters.
    static var plainText: JSONSchema {
        JSONSchema(types: [.string], description: "Tab and line breaks allowed, other control characters not", pattern: "^[^\(controlsBesideLineBreaks)]*$")
    }

    static var multiLine: JSONSchema {
        plainText.refined(by: JSONSchema(description: "Markdown; tab and line breaks allowed, other control characters not",
                                         maxLength: ProfileRules.maximumDescriptionLength))
    }
}
