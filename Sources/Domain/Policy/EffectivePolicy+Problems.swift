extension EffectivePolicy {
    /// What the profile page says about `profileID` in one group's effective policy: the Single
    /// App Mode conflict and the ASAM allowlist overlap it takes part in, named by the profiles
    /// involved. Empty when it takes part in neither.
    public func problems(involving profileID: Int64, in groupName: String) -> [String] {
        var problems: [String] = []
        if singleAppModeConflict.contains(where: { $0.sources.contains { $0.profileID == profileID } }) {
            let apps = singleAppModeConflict.map { "\($0.value.appIdentifier) (\($0.sources.map(\.profileName).joined(separator: ", ")))" }
            problems.append("Conflict in \(groupName): Single App Mode for \(apps.joined(separator: " and ")). Devices there keep their previous policy.")
        }
        if let list = self[ASAMAllowlist.self], list.sources.count > 1, list.sources.contains(where: { $0.profileID == profileID }) {
            let names = list.sources.map(\.profileName).joined(separator: ", ")
            problems.append("In \(groupName) the ASAM allowlist is set by \(names); only apps on every list remain: "
                            + (list.value.appIdentifiers.isEmpty ? "none" : list.value.appIdentifiers.joined(separator: ", ")) + ".")
        }
        return problems
    }
}
