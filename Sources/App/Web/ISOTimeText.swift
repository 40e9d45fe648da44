import Foundation
import Storage

/// Instants as ISO 8601 text in UTC (`2026-11-23T09:30:05Z`, `…05.250Z`), in the proleptic
/// Gregorian calendar that ISO 8601 and both backends count in — Foundation's formatters switch
/// to the Julian calendar before 1582, so 0001-01-01 would come back as 0001-01-03.
///
/// Total for every value a row can hold: a year past 9999 or before 0001 is written in ISO's
/// expanded form (`+10000-01-01T00:00:00Z`), and what no calendar date can name — infinities,
/// NaN, or PostgreSQL's `±infinity` that older consoles stored for times out of their range —
/// as `infinity` or `-infinity`, never a trap.
enum ISOTimeText {
    enum Precision {
        /// Whole seconds, as the API's answers and the pages write times.
        case seconds
        /// Milliseconds when there are any, as exports write log lines.
        case milliseconds
    }

    /// Beyond PostgreSQL's last representable year (294276) no stored time can lie, and
    /// milliseconds past it would overflow Int64.
    private static let largestSeconds = 9_300_000_000_000.0

    static func string(_ date: Date, precision: Precision = .seconds) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(secondsSince1970: date.timeIntervalSince1970, precision: precision, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(secondsSince1970 seconds: Double, precision: Precision, to bytes: inout [UInt8]) {
        guard seconds.isFinite, abs(seconds) <= largestSeconds else {
            bytes.append(contentsOf: (seconds > 0 ? "infinity" : "-infinity").utf8)
            return
        }
        // Times are kept to the millisecond: rounding (not truncating) reads back the
        // millisecond that was stored whichever way a backend's arithmetic came near it.
        let milliseconds = Int64((seconds * 1_000).rounded())
        let days = floorDivision(milliseconds, 86_400_000)
        let millisecondOfDay = milliseconds - days * 86_400_000
        let date = CivilDate(daysSince1970: days)
        if date.year > 9_999 { bytes.append(UInt8(ascii: "+")) }
        if date.year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(abs(date.year), atLeast: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.month, atLeast: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.day, atLeast: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(millisecondOfDay / 3_600_000, atLeast: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(millisecondOfDay / 60_000 % 60, atLeast: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(millisecondOfDay / 1_000 % 60, atLeast: 2, to: &bytes)
        if precision == .milliseconds, millisecondOfDay % 1_000 != 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(millisecondOfDay % 1_000, atLeast: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `number` (not negative) in decimal, padded with zeros to `count` digits.
    private static func appendDigits(_ number: Int64, atLeast count: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        var width = 1
        while width < count || number / divisor >= 10 {
            divisor *= 10
            width += 1
        }
        var rest = number
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }
}
