/// An email address as the console stores it: trimmed and lower-cased, so that
/// "Ann@Example.com " and "ann@example.com" are the same account.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public enum Problem: Error, Equatable, Sendable {
        case empty
        case malformed
        case tooLong

        public var message: String {
            switch self {
            case .empty: "Enter an email address."
            case .malformed: "Enter an email address like name@example.com."
            case .tooLong: "An email address has at most 254 characters."
            }
        }
    }

    /// Accepts the shape `local@domain.tld` without spaces; deliverability is not our concern.
    public init(validating raw: String) throws(Problem) {
        let trimmed = raw.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= 254 else { throw .tooLong }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2,
              !parts[0].isEmpty,
              parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !trimmed.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }),
              PlainText.problem(trimmed) == nil
        else { throw .malformed }
        value = trimmed
    }

    public var description: String { value }
}

extension String {
    /// Leading and trailing spaces, tabs and newlines removed (no Foundation needed).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
