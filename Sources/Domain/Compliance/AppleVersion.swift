/// A version as Apple numbers apps and iOS: dot-separated whole numbers compared part by part,
/// a missing part counting as zero — so `17.10` is later than `17.9` and `18` equals `18.0`.
/// Compliance rules compare app and OS versions this way.
public struct AppleVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// As given, without trailing zero parts (`18.0.0` is kept as `[18]`), so equal versions are equal values.
    public let parts: [Int]
    public let description: String

    public static let maximumParts = 4
    public static let maximumLength = 32

    /// nil unless `text` is one to four whole numbers (each at most 9 digits) joined by dots.
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= Self.maximumLength else { return nil }
        let pieces = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= Self.maximumParts,
              pieces.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        var numbers = pieces.map { Int($0)! }
        while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
        parts = numbers
        description = trimmed
    }

    public static func == (lhs: AppleVersion, rhs: AppleVersion) -> Bool { lhs.parts == rhs.parts }
    public func hash(into hasher: inout Hasher) { hasher.combine(parts) }

    public static func < (lhs: AppleVersion, rhs: AppleVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : 0
            let right = index < rhs.parts.count ? rhs.parts[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}

/// How a rule compares a device's version with the rule's.
public enum VersionComparison: String, CaseIterable, Codable, Hashable, Sendable {
    case lessThan, lessThanOrEqual, equal, notEqual, greaterThanOrEqual, greaterThan

    public var symbol: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqual: "≤"
        case .equal: "="
        case .notEqual: "≠"
        case .greaterThanOrEqual: "≥"
        case .greaterThan: ">"
        }
    }

    /// The value in the SDK profile.
    public var sdkValue: String {
        switch self {
        case .lessThan: "LessThan"
        case .lessThanOrEqual: "LessThanOrEqualTo"
        case .equal: "EqualTo"
        case .notEqual: "NotEqualTo"
        case .greaterThanOrEqual: "GreaterThanOrEqualTo"
        case .greaterThan: "GreaterThan"
        }
    }

    public var displayName: String {
        switch self {
        case .lessThan: "earlier than"
        case .lessThanOrEqual: "at most"
        case .equal: "exactly"
        case .notEqual: "anything but"
        case .greaterThanOrEqual: "at least"
        case .greaterThan: "later than"
        }
    }

    /// Whether `version` stands in this relation to `reference`.
    public func holds(_ version: AppleVersion, _ reference: AppleVersion) -> Bool {
        switch self {
        case .lessThan: version < reference
        case .lessThanOrEqual: version <= reference
        case .equal: version == reference
        case .notEqual: version != reference
        case .greaterThanOrEqual: version >= reference
        case .greaterThan: version > reference
        }
    }
}
