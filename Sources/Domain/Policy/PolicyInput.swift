/// Where a setting came from: which profile, which version, through which group.
public struct PolicySource: Equatable, Hashable, Sendable {
    public let profileID: Int64
    public let profileName: String
    public let version: Int
    public let groupName: String
    /// 0 for the device's own group, 1 for its parent, and so on.
    public let groupDistance: Int

    public init(profileID: Int64, profileName: String, version: Int, groupName: String, groupDistance: Int) {
        self.profileID = profileID
        self.profileName = profileName
        self.version = version
        self.groupName = groupName
        self.groupDistance = groupDistance
    }
}

/// One profile version that reaches a device, and through which group.
public struct ReachingProfile: Sendable {
    public let source: PolicySource
    public let content: ProfileContent

    public init(source: PolicySource, content: ProfileContent) {
        self.source = source
        self.content = content
    }
}

/// A setting's effective value and every profile that contributed to it.
public struct Sourced<Value: Sendable>: Sendable {
    public let value: Value
    public let sources: [PolicySource]

    public init(value: Value, sources: [PolicySource]) {
        self.value = value
        self.sources = sources
    }
}
