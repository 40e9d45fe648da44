import Foundation

/// ISO 8601 / RFC 3339 times as devices, scripts and forms send them, read strictly: a field out
/// of its range (hour 25, 30 February, minute 61, an offset of +25:00) is refused, where
/// Foundation's readers roll it over into another, real time that nobody sent.
///
/// Every time the console accepts lies in `range` — years 0001 to 9999 in UTC, what a
/// four-digit year writes and what both backends keep exactly — and is kept to the
/// millisecond, so the SQLite file and PostgreSQL store, compare and return the same instant.
public enum ISOTimestamp {
    /// 0001-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z, in seconds since 1970.
    public static let range: Range<TimeInterval> = -62_135_596_800 ..< 253_402_300_800

    /// What a refusal says about the range, for messages beside a field.
    public static let rangeDescription = "between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z"

    /// The rule as the API document states it.
    public static let documentedRange = "ISO 8601 with its zone, \(rangeDescription) in UTC, kept to the millisecond"

    /// `2026-11-23T09:30:00Z`, with optional fractional seconds and a zone of `Z`, `±hh:mm`,
    /// `±hhmm` or `±hh`.
    public static func parse(_ text: String) -> Date? {
        guard let parts = Parts(text), let offset = parts.offsetSeconds, parts.hasSeconds else { return nil }
        return parts.date(offsetSeconds: offset)
    }

    /// A time with a zone as `parse` reads it, or a zoneless one (`2026-11-23T09:30`, seconds
    /// optional, as a browser's `datetime-local` sends) taken as `offsetSeconds` from UTC.
    public static func parse(_ text: String, zonelessOffsetSeconds offsetSeconds: Int) -> Date? {
        guard let parts = Parts(text) else { return nil }
        if let own = parts.offsetSeconds { return parts.hasSeconds ? parts.date(offsetSeconds: own) : nil }
        return parts.date(offsetSeconds: offsetSeconds)
    }

    /// `2026-11-23` as the start of that day in UTC.
    public static func day(_ text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let (year, month, day) = reader.calendarDay(), reader.isAtEnd, year > 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(CalendarArithmetic.daysSince1970(year: year, month: month, day: day) * 86_400))
    }

    private struct Parts {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var hasSeconds = false
        var offsetSeconds: Int?

        init?(_ text: String) {
            var reader = Reader(Array(text.utf8))
            guard let (year, month, day) = reader.calendarDay(), reader.take(anyOf: "Tt"),
                  let hour = reader.number(digits: 2), hour < 24, reader.take(anyOf: ":"),
                  let minute = reader.number(digits: 2), minute < 60 else { return nil }
            (self.year, self.month, self.day, self.hour, self.minute) = (year, month, day, hour, minute)
            if reader.take(anyOf: ":") {
                guard let second = reader.number(digits: 2), second < 60 else { return nil }
                self.second = second
                hasSeconds = true
                if reader.take(anyOf: ".,") {
                    let digits = reader.digits()
                    guard !digits.isEmpty, digits.count <= 9 else { return nil }
                    fraction = Double(digits.reduce(0) { $0 * 10 + $1 }) / pow(10, Double(digits.count))
                }
            }
            if reader.take(anyOf: "Zz") {
                offsetSeconds = 0
            } else if let sign = reader.sign() {
                guard let hours = reader.number(digits: 2), hours < 24 else { return nil }
                var minutes = 0
                let colon = reader.take(anyOf: ":")
                if colon || !reader.isAtEnd {
                    guard let given = reader.number(digits: 2), given < 60 else { return nil }
                    minutes = given
                }
                offsetSeconds = sign * (hours * 3_600 + minutes * 60)
            }
            guard reader.isAtEnd else { return nil }
        }

        /// The instant, to the millisecond; nil outside `range` (a zone can carry 0001-01-01 or
        /// 9999-12-31 across it).
        func date(offsetSeconds: Int) -> Date? {
            let days = CalendarArithmetic.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
            let milliseconds = (fraction * 1_000).rounded()
            let instant = TimeInterval(seconds) + milliseconds / 1_000
            guard range.contains(instant) else { return nil }
            return Date(timeIntervalSince1970: instant)
        }
    }

    /// ASCII digits and separators at a position.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(anyOf characters: String) -> Bool {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int? {
            if take(anyOf: "+") { return 1 }
            if take(anyOf: "-") { return -1 }
            return nil
        }

        mutating func number(digits count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += count
            return value
        }

        mutating func digits() -> [Int] {
            var found: [Int] = []
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                found.append(Int(bytes[position] - 0x30))
                position += 1
            }
            return found
        }

        /// `yyyy-mm-dd`, a day that exists.
        mutating func calendarDay() -> (Int, Int, Int)? {
            guard let year = number(digits: 4), take(anyOf: "-"), let month = number(digits: 2), take(anyOf: "-"),
                  let day = number(digits: 2), (1...12).contains(month),
                  (1...CalendarArithmetic.daysIn(month: month, year: year)).contains(day) else { return nil }
            return (year, month, day)
        }
    }
}
