/// The rules a batch of uploaded lines meets before any of it is stored: every line valid, and
/// every line at a level the device's logging policy collects — unless the console asked the
/// device to capture everything for a while.
public enum LogBatch {
    /// At most this many lines in one upload.
    public static let maximumLines = 10_000

    public enum Problem: Error, Equatable, Sendable {
        case empty
        case tooManyLines(Int)
        /// `line` counts from 1, as an editor shows the body.
        case invalidLine(line: Int, field: String, message: String)
        case loggingOff
        case levelNotCollected(line: Int, level: LogLevel, collected: LogLevel)

        public var message: String {
            switch self {
            case .empty: "The upload has no lines: send one JSON object per line."
            case .tooManyLines(let count): "Send at most \(LogBatch.maximumLines) lines in one upload; this one has \(count)."
            case .invalidLine(let line, _, let message): "Line \(line): \(message)"
            case .loggingOff: "Logging is off for this device: no profile reaching it turns logging on, so the console keeps none of its lines."
            case .levelNotCollected(let line, let level, let collected):
                "Line \(line) is \(level.displayName); this device's logging policy collects \(collected.displayName) and more severe messages."
            }
        }
    }

    /// The first line that is not valid on its own, or a batch that is empty or too long.
    public static func problem(_ lines: [LogLine]) -> Problem? {
        guard !lines.isEmpty else { return .empty }
        guard lines.count <= maximumLines else { return .tooManyLines(lines.count) }
        for (index, line) in lines.enumerated() {
            if let (field, message) = line.validate().messages.sorted(by: { $0.key < $1.key }).first {
                return .invalidLine(line: index + 1, field: field, message: message)
            }
        }
        return nil
    }

    /// The first line the device's logging policy does not collect: none while the console has
    /// it capturing every level.
    public static func levelProblem(_ lines: [LogLine], logging: Logging?, capturing: Bool) -> Problem? {
        if capturing { return nil }
        guard let logging, logging.enabled else { return .loggingOff }
        if let index = lines.firstIndex(where: { !logging.level.includes($0.level) }) {
            return .levelNotCollected(line: index + 1, level: lines[index].level, collected: logging.level)
        }
        return nil
    }
}
