import Domain
import Mustache

/// The effective policy as the device page explains it: each setting, its value, and the
/// profile, version and group it came from.
struct PolicyView {
    struct Setting {
        let name: String
        let rule: String
        let lines: [String]
        let sources: [String]

        /// Written by hand: the device page is opened on every helpdesk call, and templating
        /// these nested lists was most of its time.
        var html: String {
            func list(_ items: [String]) -> String {
                "<ul class=\"plain\">" + items.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>"
            }
            return "<tr><th scope=\"row\">\(HTMLText.escape(name))<br><span class=\"muted small-text\">\(HTMLText.escape(rule))</span></th>"
                + "<td>\(list(lines))</td><td>\(list(sources))</td></tr>\n"
        }
    }

    let settings: [Setting]
    let settingsHTML: String
    let isEmpty: Bool
    let conflict: [String]
    let hasConflict: Bool
    let warnings: [String]

    init(_ policy: EffectivePolicy) {
        // Derived kind by kind from the policy: a new payload kind needs nothing here.
        var settings = policy.settings.map { setting in
            Setting(name: setting.kind.displayName, rule: setting.kind.combination.sentence,
                    lines: PayloadSummary.lines(setting.payload), sources: setting.sources.map(Self.describe))
        }
        if policy.settings.contains(where: { $0.kind.isSDKPayload }) {
            settings.append(Self.encryption(policy[Authentication.self]))
        }
        self.settings = settings
        settingsHTML = settings.map(\.html).joined()
        isEmpty = settings.isEmpty && !policy.hasConflict
        conflict = policy.singleAppModeConflict.map { "\($0.value.appIdentifier) from \($0.sources.map(Self.describe).joined())" }
        hasConflict = policy.hasConflict
        warnings = policy.warnings
    }

    /// Encryption has no payload; its strength follows authentication, so wherever SDK
    /// payloads reach a device the page says which applies.
    static func encryption(_ authentication: Sourced<Authentication>?) -> Setting {
        guard let authentication else {
            return Setting(name: "Encryption", rule: "Follows authentication",
                           lines: ["No authentication payload reaches this device: as with authentication Disabled, the key is random and stored on the device."],
                           sources: ["No authentication payload"])
        }
        return Setting(name: "Encryption", rule: "Follows authentication", lines: [authentication.value.type.encryptionNote],
                       sources: authentication.sources.map(describe))
    }

    static func describe(_ source: PolicySource) -> String {
        "\(source.profileName) v\(source.version) via \(source.groupName)"
    }
}

extension PolicyView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "settingsHTML": settingsHTML
        case "isEmpty": isEmpty
        case "conflict": conflict
        case "hasConflict": hasConflict
        case "warnings": warnings
        default: nil
        }
    }
}
