import Foundation

/// Parsing of the text inside `<integer>`, `<real>`, `<date>` and `<data>`. Surrounding
/// whitespace is ignored, as Apple's own reader does; anything else must be exact.
enum PropertyListScalars {
    /// A decimal whole number with an optional sign that fits in `Int`.
    static func integer(_ text: String, line: Int) throws(PropertyListProblem) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw PropertyListProblem(line: line, reason: "<integer> must hold a whole number, not \"\(trimmed)\"")
        }
        guard let number = Int(trimmed) else {
            throw PropertyListProblem(line: line, reason: "the integer \(trimmed) is out of range")
        }
        return number
    }

    /// A decimal number with optional fraction and exponent, or nan / inf / infinity.
    static func real(_ text: String, line: Int) throws(PropertyListProblem) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let unsigned = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        switch unsigned.lowercased() {
        case "nan": return .nan
        case "inf", "infinity": return trimmed.hasPrefix("-") ? -.infinity : .infinity
        default: break
        }
        // Checked by hand because Double(_:) also accepts forms such as hexadecimal "0x1p3".
        guard isDecimal(unsigned), let number = Double(trimmed) else {
            throw PropertyListProblem(line: line, reason: "<real> must hold a decimal number, not \"\(trimmed)\"")
        }
        guard number.isFinite else {
            throw PropertyListProblem(line: line, reason: "the real number \(trimmed) is out of range")
        }
        return number
    }

    /// digits [. digits] | . digits, then an optional exponent.
    private static func isDecimal(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        let whole = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        bytes = bytes.dropFirst(whole)
        var fraction = 0
        if bytes.first == 0x2E {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole + fraction > 0 else { return false }
        if bytes.first == 0x65 || bytes.first == 0x45 {
            bytes = bytes.dropFirst()
            if bytes.first == 0x2B || bytes.first == 0x2D { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }

    /// ISO 8601 in UTC exactly as Apple writes it: `2026-01-31T09:00:00Z`.
    static func date(_ text: String, line: Int) throws(PropertyListProblem) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let problem = PropertyListProblem(line: line, reason: "<date> must look like 2026-01-31T09:00:00Z, not \"\(trimmed)\"")
        let bytes = Array(trimmed.utf8)
        // Separators at fixed positions; every other position is a digit.
        let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x54, 13: 0x3A, 16: 0x3A, 19: 0x5A]
        guard bytes.count == 20 else { throw problem }
        for (index, byte) in bytes.enumerated() {
            if let separator = separators[index] {
                guard byte == separator else { throw problem }
            } else if !(0x30...0x39).contains(byte) {
                throw problem
            }
        }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        let hour = number(11..<13), minute = number(14..<16), second = number(17..<19)
        guard (1...12).contains(month), (1...CalendarArithmetic.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else {
            throw PropertyListProblem(line: line, reason: "<date> \(trimmed) is not a real date and time")
        }
        let days = CalendarArithmetic.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Base64 that may be wrapped over lines and indented, as Apple's tools write it.
    static func base64(_ text: String, line: Int) throws(PropertyListProblem) -> [UInt8] {
        let compact = String(decoding: text.utf8.filter { !XMLSource.isWhitespace($0) }, as: UTF8.self)
        guard let data = Data(base64Encoded: compact) else {
            throw PropertyListProblem(line: line, reason: "<data> is not valid base64")
        }
        return [UInt8](data)
    }
}
