import Foundation

/// What a managed app makes of the `com.apple.configuration.managed` dictionary it received:
/// every key checked for type and range, and a default inside the key's own limits used for a
/// missing or invalid one (`ConfigKey.fallback`) — the behaviour the seed asks of a well-behaved app.
public struct ReceivedConfiguration: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let value: String
        public let usedDefault: Bool
        public let note: String?
    }

    public let entries: [Entry]
    public var defaultedCount: Int { entries.filter(\.usedDefault).count }

    public init(_ configuration: ManagedAppConfiguration) {
        entries = configuration.keys.map { key in
            if let value = key.value, ManagedAppConfiguration.valueProblem(key) == nil {
                return Entry(name: key.name, value: Self.describe(value), usedDefault: false, note: nil)
            }
            let why = key.value == nil ? "missing" : "invalid"
            guard let fallback = key.fallback else {
                // Only a key saved before the console asked for a value gets here.
                return Entry(name: key.name, value: "(not set)", usedDefault: true,
                             note: "\(why), and its limits leave no default, so the app leaves it unset")
            }
            return Entry(name: key.name, value: Self.describe(fallback.value), usedDefault: true,
                         note: "\(why), so the app falls back to \(fallback.reason)")
        }
    }

    static func describe(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): text.isEmpty ? "(empty)" : text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): ISO8601DateFormatter().string(from: date)
        case .stringArray(let items): items.isEmpty ? "(no items)" : items.joined(separator: ", ")
        }
    }
}

extension SimulatedDevice {
    /// The configuration `bundleID` receives: iOS hands `com.apple.configuration.managed` to
    /// managed apps only, so a user-installed (or absent) app gets nil whatever the policy holds.
    public func deliveredConfiguration(for bundleID: String) -> ManagedAppConfiguration? {
        guard app(bundleID)?.isManaged == true else { return nil }
        return policy.configuration(for: bundleID)
    }
}
