/// Proleptic Gregorian day counting for years 0...9999, enough for the dates people and devices
/// send without a date formatter per call. Matches Foundation from 1583 on; before the Gregorian
/// reform Foundation switches to Julian days, which no device setting will ever need.
enum CalendarArithmetic {
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days in the years before `year`, counting from year 0 (itself a leap year).
    private static func daysBefore(year: Int) -> Int {
        365 * year + (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400
    }

    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        var days = daysBefore(year: year) - daysBefore(year: 1970)
        for earlier in 1..<month { days += daysIn(month: earlier, year: year) }
        return days + day - 1
    }
}
