import Foundation

/// What a managed app makes of the `com.apple.configuration.managed` dictionary it received:
/// every key checked for type and range, and a default used for a missing or invalid one — the
/// behaviour the seed asks of a well-behaved app.
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
            let note = key.value == nil ? "missing, so the app's default is used" : "invalid, so the app's default is used"
            return Entry(name: key.name, value: Self.describe(Self.defaultValue(for: key.type)), usedDefault: true, note: note)
        }
    }

    static func defaultValue(for type: ConfigValueType) -> ConfigValue {
        switch type {
        case .string: .string("")
        case .integer: .integer(0)
        case .real: .real(0)
        case .boolean: .boolean(false)
        case .date: .date(Date(timeIntervalSince1970: 0))
        case .stringArray: .stringArray([])
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
