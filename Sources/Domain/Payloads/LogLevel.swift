/// Log levels from most to least severe. A configured level keeps messages at that level and
/// every more severe one.
public enum LogLevel: String, CaseIterable, Codable, Sendable, Comparable {
    case error
    case warning
    case information
    case debug

    public var displayName: String {
        switch self {
        case .error: "Error"
        case .warning: "Warning"
        case .information: "Information"
        case .debug: "Debug"
        }
    }

    /// 0 is the most severe.
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Ordered by severity: `.error < .debug`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }

    /// Whether a device configured at this level uploads a message at `messageLevel`.
    public func includes(_ messageLevel: LogLevel) -> Bool { messageLevel <= self }
}
