/// What one kind's payloads from every profile reaching a device combine into: the settings
/// the device gets (one, or one per app), payloads that cannot combine (a conflict: the device
/// keeps its previous policy), and warnings for the device page.
public struct Combined<Settings: PayloadSettings>: Sendable {
    public var effective: [Sourced<Settings>]
    public var conflicting: [Sourced<Settings>]
    public var warnings: [String]

    public init(effective: [Sourced<Settings>] = [], conflicting: [Sourced<Settings>] = [], warnings: [String] = []) {
        self.effective = effective
        self.conflicting = conflicting
        self.warnings = warnings
    }

    /// One value from every payload, crediting each profile.
    public init(_ value: Settings, from found: [Sourced<Settings>], warnings: [String] = []) {
        self.init(effective: [Sourced(value: value, sources: found.flatMap(\.sources))], warnings: warnings)
    }

    /// The setting from the nearest group; a warning when two profiles at that distance set it.
    public static func nearestGroup(_ found: [Sourced<Settings>]) -> Combined {
        guard let first = found.first, let source = first.sources.first else { return Combined() }
        let ties = found.filter { $0.sources.first?.groupDistance == source.groupDistance }
        var warnings: [String] = []
        if ties.count > 1 {
            let names = ties.compactMap { $0.sources.first?.profileName }
            let listed = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            warnings.append("\(listed) \(names.count == 2 ? "both" : "all") set \(Settings.kind.displayName) through \(source.groupName); \(source.profileName) wins (the oldest profile).")
        }
        return Combined(effective: [first], warnings: warnings)
    }
}

extension Sourced {
    /// The same sources with a value made from this one.
    public func map<Other>(_ transform: (Value) -> Other) -> Sourced<Other> {
        Sourced<Other>(value: transform(value), sources: sources)
    }
}
