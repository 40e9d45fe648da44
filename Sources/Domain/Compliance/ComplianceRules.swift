/// A compliance rule as the SDK app checks it on the device: a condition on an app's version
/// or on the OS version, and what happens when the device meets it — the app is blocked, or
/// the managed apps and their data are wiped (enterprise wipe). Every rule of every profile
/// that reaches the device applies; a wipe beats a block.
public struct ComplianceRule: Codable, Equatable, Hashable, Sendable {
    public enum Subject: Equatable, Hashable, Sendable {
        /// The version of the app with this bundle ID.
        case app(String)
        case operatingSystem
    }

    public enum Action: String, CaseIterable, Codable, Hashable, Sendable {
        case block, wipe

        /// The value in the SDK profile.
        public var sdkValue: String { self == .block ? "Block" : "Wipe" }

        public var displayName: String {
            switch self {
            case .block: "Block the app"
            case .wipe: "Wipe managed apps and their data"
            }
        }
    }

    public var subject: Subject
    public var comparison: VersionComparison
    public var version: String
    public var action: Action

    public init(subject: Subject, comparison: VersionComparison, version: String, action: Action) {
        self.subject = subject
        self.comparison = comparison
        self.version = version
        self.action = action
    }

    /// Stored and sent flat — `{"subject": "app-version", "appIdentifier": …}` or
    /// `{"subject": "os-version"}` — so API clients write rules without Swift's enum shape.
    private enum CodingKeys: String, CodingKey { case subject, appIdentifier, comparison, version, action }
    private enum SubjectName: String, Codable { case appVersion = "app-version", osVersion = "os-version" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(SubjectName.self, forKey: .subject) {
        case .appVersion: subject = .app(try container.decode(String.self, forKey: .appIdentifier))
        case .osVersion: subject = .operatingSystem
        }
        comparison = try container.decode(VersionComparison.self, forKey: .comparison)
        version = try container.decode(String.self, forKey: .version)
        action = try container.decode(Action.self, forKey: .action)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch subject {
        case .app(let bundleID):
            try container.encode(SubjectName.appVersion, forKey: .subject)
            try container.encode(bundleID, forKey: .appIdentifier)
        case .operatingSystem:
            try container.encode(SubjectName.osVersion, forKey: .subject)
        }
        try container.encode(comparison, forKey: .comparison)
        try container.encode(version, forKey: .version)
        try container.encode(action, forKey: .action)
    }

    /// The bundle ID of an app-version rule.
    public var appIdentifier: String? {
        if case .app(let bundleID) = subject { bundleID } else { nil }
    }

    /// "Clinic Notes earlier than 5.2" as a sentence, with the app's name when known.
    public func describe(appName: (String) -> String = { $0 }) -> String {
        let what = switch subject {
        case .app(let bundleID): appName(bundleID)
        case .operatingSystem: "iOS"
        }
        return "\(what) \(comparison.displayName) \(version)"
    }
}

/// What a device's versions mean under a set of rules.
public struct ComplianceVerdict: Equatable, Sendable {
    /// The rules the device meets, in the order given.
    public let broken: [ComplianceRule]
    /// The rules about a version the device has not reported (an installed app's, or iOS's):
    /// they may be met or not. The SDK on the device always knows, so only a preview from the
    /// console's reports has any.
    public let notKnown: [ComplianceRule]

    public var isCompliant: Bool { broken.isEmpty }
    /// Wipe when any broken rule wipes, else block when any is broken.
    public var action: ComplianceRule.Action? {
        broken.contains { $0.action == .wipe } ? .wipe : (broken.isEmpty ? nil : .block)
    }

    /// Checks `rules` against the device's iOS version and its apps' versions (bundle ID →
    /// version); `installedApps` defaults to the apps with a version. A rule about an app the
    /// device does not have, or a version that does not read as one, is not met: it cannot be
    /// judged, so it does not act. A version nobody reported (nil iOS, an installed app
    /// without a version) is not known.
    public static func judge(_ rules: [ComplianceRule], osVersion: String?, appVersions: [String: String],
                             installedApps: [String]? = nil) -> ComplianceVerdict {
        let installed = Set(installedApps ?? Array(appVersions.keys))
        var broken: [ComplianceRule] = [], notKnown: [ComplianceRule] = []
        for rule in rules {
            let actual: String?
            switch rule.subject {
            case .app(let bundleID):
                guard installed.contains(bundleID) else { continue }
                actual = appVersions[bundleID]
            case .operatingSystem:
                actual = osVersion
            }
            guard let actual else {
                notKnown.append(rule)
                continue
            }
            guard let version = AppleVersion(actual), let reference = AppleVersion(rule.version) else { continue }
            if rule.comparison.holds(version, reference) { broken.append(rule) }
        }
        return ComplianceVerdict(broken: broken, notKnown: notKnown)
    }
}
