import Foundation

/// What groups crash logs: the first meaningful line of the report, with the parts that differ
/// between two occurrences of the same crash (addresses, long numbers) blanked out.
public enum CrashSignature {
    /// Headers every crash report has; they say nothing about which crash it was.
    static let boilerplate = [
        "incident identifier", "crashreporter key", "hardware model", "process", "path", "identifier",
        "version", "code type", "role", "parent process", "coalition", "date/time", "launch time",
        "os version", "release type", "baseband version", "report version", "beta identifier",
    ]

    public static let maximumLength = 160

    public static func of(_ report: String) -> String {
        for raw in report.split(whereSeparator: \.isNewline) {
            let line = trimmed(raw)
            guard !line.isEmpty, !isBoilerplate(line) else { continue }
            let normalised = blankVariableParts(line)
            return normalised.count > maximumLength ? String(normalised.prefix(maximumLength)) + "…" : normalised
        }
        return "(empty crash report)"
    }

    /// The app version a crash report's `Version:` header names ("2.4.0 (240)" gives "2.4.0"),
    /// or nil when it names none.
    public static func reportedVersion(in report: String) -> String? {
        for raw in report.split(whereSeparator: \.isNewline).prefix(40) {
            let line = trimmed(raw)
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "version" else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            return value.isEmpty || value.count > 40 ? nil : value
        }
        return nil
    }

    /// A line without the spaces and tabs around it. Split at line breaks, a line's only
    /// whitespace is what `CharacterSet.whitespaces` holds, which Foundation would trim by
    /// bridging every line to NSString (a third of a crash line's grouping).
    static func trimmed(_ line: Substring) -> String {
        guard let first = line.firstIndex(where: { !$0.isWhitespace }), let last = line.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(line[first...last])
    }

    static func isBoilerplate(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        return boilerplate.contains(line[..<colon].lowercased())
    }

    /// `0x1a2b3c` becomes `0x…` and numbers of five or more digits become `#`, so two crashes
    /// at different addresses or with different ids group together; line numbers stay.
    static func blankVariableParts(_ line: String) -> String {
        var result = ""
        var index = line.startIndex
        while index < line.endIndex {
            let rest = line[index...]
            if rest.hasPrefix("0x"), let next = rest.dropFirst(2).first, next.isHexDigit {
                result += "0x…"
                index = rest.dropFirst(2).firstIndex { !$0.isHexDigit } ?? line.endIndex
            } else if line[index].isNumber {
                let end = rest.firstIndex { !$0.isNumber } ?? line.endIndex
                let digits = line[index..<end]
                result += digits.count >= 5 ? "#" : String(digits)
                index = end
            } else {
                result.append(line[index])
                index = line.index(after: index)
            }
        }
        return result
    }
}
