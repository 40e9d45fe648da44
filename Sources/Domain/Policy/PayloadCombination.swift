/// How the payloads of one kind, from every profile that reaches a device, combine into what
/// the device gets: one rule per kind, the same for the device page, the simulator and the
/// exports.
public enum PayloadCombination: Sendable {
    /// One app for the device; two different apps are a conflict and the device keeps its
    /// previous policy.
    case oneApp
    /// Only what every payload allows (iOS's rule for allow-lists).
    case intersection
    /// Per setting, the most restrictive answer.
    case mostRestrictive
    /// Everything every payload lists.
    case union
    /// Every app any payload lists.
    case everyApp
    /// Every rule of every payload; a wipe beats a block.
    case everyRule
    /// The payload of the nearest group; the oldest profile among equals.
    case nearestGroup
    /// The nearest group's payload for each app.
    case nearestGroupPerApp

    /// The rule as the device page states it.
    public var sentence: String {
        switch self {
        case .oneApp: "One app for the device"
        case .intersection: "Intersection of every list"
        case .mostRestrictive: "Most restrictive answer wins"
        case .union: "Areas of every profile combined"
        case .everyApp: "Every app any profile requires"
        case .everyRule: "Every rule of every profile applies; a wipe beats a block"
        case .nearestGroup: "Nearest group wins"
        case .nearestGroupPerApp: "Nearest group wins, per app"
        }
    }
}
