import Foundation

/// Times as people read them in lists ("5 minutes ago"), with the exact ISO time alongside.
enum DisplayTime {
    static func relative(_ date: Date, now: Date) -> String {
        let elapsed = now.timeIntervalSince(date)
        // A time weeks away either side — or one no clock reaches, such as an older console's
        // stored `-infinity` — is named by its day, not counted in seconds.
        guard abs(elapsed) < 86_400 * 14 else { return String(iso(date).prefix(10)) }
        let seconds = Int(elapsed.rounded(.down))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return plural(seconds / 60, "minute") + " ago"
        case ..<86_400: return plural(seconds / 3600, "hour") + " ago"
        default: return plural(seconds / 86_400, "day") + " ago"
        }
    }

    static func iso(_ date: Date) -> String {
        ISOTimeText.string(date)
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}
