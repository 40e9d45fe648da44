import Foundation

/// Times as people read them in lists ("5 minutes ago"), with the exact ISO time alongside.
enum DisplayTime {
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return plural(seconds / 60, "minute") + " ago"
        case ..<86_400: return plural(seconds / 3600, "hour") + " ago"
        case ..<(86_400 * 14): return plural(seconds / 86_400, "day") + " ago"
        default: return iso(date).prefix(10).description
        }
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}
