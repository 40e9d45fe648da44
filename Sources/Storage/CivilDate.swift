/// The calendar date of a day counted from 1970-01-01, in the proleptic Gregorian calendar
/// that PostgreSQL and ISO 8601 use: Howard Hinnant's `civil_from_days`, which counts in
/// 400-year eras starting on 1 March. Used where dates are written a byte at a time (PostgreSQL
/// timestamps, exported log lines), millions of times, without a calendar object or the C library.
public struct CivilDate: Equatable, Sendable {
    public let year: Int64
    public let month: Int64
    public let day: Int64

    public init(daysSince1970 days: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
