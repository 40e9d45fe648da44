/// Device groups form a tree ("Clinic iPads" inside "Clinics"). Settings that differ per group
/// come from the nearest group that sets them, so the tree answers "which groups, nearest first".
public struct GroupTree<ID: Hashable & Sendable>: Sendable {
    private let parents: [ID: ID]

    /// `parents` maps each group to its parent; top-level groups are absent.
    public init(parents: [ID: ID]) {
        self.parents = parents
    }

    /// The group itself, then its parent, up to the top. Stops at a cycle rather than looping
    /// (the console refuses to create one, but a damaged database must not hang a request).
    public func lineage(of group: ID) -> [ID] {
        var chain = [group]
        var seen: Set<ID> = [group]
        var current = group
        while let parent = parents[current], !seen.contains(parent) {
            chain.append(parent)
            seen.insert(parent)
            current = parent
        }
        return chain
    }

    /// How many levels above the group there are (0 for a top-level group).
    public func depth(of group: ID) -> Int { lineage(of: group).count - 1 }

    /// `group` and every group inside it, at any depth, among `groups`.
    public func subtree(of group: ID, among groups: some Sequence<ID>) -> Set<ID> {
        Set(groups.filter { lineage(of: $0).contains(group) })
    }

    /// Whether making `parent` the parent of `group` would put `group` inside itself.
    public func wouldCreateCycle(settingParentOf group: ID, to parent: ID) -> Bool {
        lineage(of: parent).contains(group)
    }
}
