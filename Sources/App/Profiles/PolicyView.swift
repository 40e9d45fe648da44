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
        var settings: [Setting] = []
        func add(_ kind: PayloadKind, rule: String, lines: [String], sources: [PolicySource]) {
            settings.append(Setting(name: kind.displayName, rule: rule, lines: lines, sources: sources.map(Self.describe)))
        }
        if let lock = policy.singleAppMode {
            add(.singleAppMode, rule: "One app for the device", lines: PayloadSummary.lines(.singleAppMode(lock.value)), sources: lock.sources)
        }
        if let list = policy.asamAllowlist {
            add(.asamAllowlist, rule: "Intersection of every list",
                lines: [list.value.isEmpty ? "No app may lock the device" : list.value.joined(separator: ", ")], sources: list.sources)
        }
        if let dlp = policy.dlp {
            add(.dlp, rule: "Most restrictive answer wins", lines: PayloadSummary.lines(.dlp(dlp.value)), sources: dlp.sources)
        }
        if let areas = policy.geofence {
            add(.geofence, rule: "Areas of every profile combined", lines: PayloadSummary.lines(.geofence(Geofence(areas: areas.value))), sources: areas.sources)
        }
        if let logging = policy.logging {
            add(.logging, rule: "Nearest group wins", lines: PayloadSummary.lines(.logging(logging.value)), sources: logging.sources)
        }
        if let branding = policy.branding {
            add(.branding, rule: "Nearest group wins", lines: PayloadSummary.lines(.branding(branding.value)), sources: branding.sources)
        }
        if let auth = policy.authentication {
            add(.authentication, rule: "Nearest group wins", lines: PayloadSummary.lines(.authentication(auth.value)), sources: auth.sources)
        }
        for config in policy.appConfigurations {
            add(.managedAppConfig, rule: "Nearest group wins, per app", lines: PayloadSummary.lines(.managedAppConfig(config.value)), sources: config.sources)
        }
        self.settings = settings
        settingsHTML = settings.map(\.html).joined()
        isEmpty = settings.isEmpty && !policy.hasConflict
        conflict = policy.singleAppModeConflict.map { "\($0.value.appIdentifier) from \($0.sources.map(Self.describe).joined())" }
        hasConflict = policy.hasConflict
        warnings = policy.warnings
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
