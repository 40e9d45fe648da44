import Foundation

/// An Apple property list value. Dictionaries keep their insertion order so exports are
/// deterministic and read in the order Apple documents the keys.
public indirect enum PropertyList: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data([UInt8])
    case array([PropertyList])
    case dictionary([(String, PropertyList)])

    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value under `key` of a dictionary.
    public subscript(key: String) -> PropertyList? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    // MARK: XML

    /// The whole document in Apple's XML format, tab-indented as Apple's tools write it.
    public func xmlDocument() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(to: &out, indent: 0)
        out += "</plist>\n"
        return out
    }

    private func write(to out: inout String, indent: Int) {
        let tabs = String(repeating: "\t", count: indent)
        switch self {
        case .string(let text): out += "\(tabs)<string>\(Self.escape(text))</string>\n"
        case .integer(let number): out += "\(tabs)<integer>\(number)</integer>\n"
        case .real(let number): out += "\(tabs)<real>\(Self.format(number))</real>\n"
        case .boolean(let flag): out += "\(tabs)<\(flag ? "true" : "false")/>\n"
        case .date(let date): out += "\(tabs)<date>\(Self.iso(date))</date>\n"
        case .data(let bytes): out += "\(tabs)<data>\(Data(bytes).base64EncodedString())</data>\n"
        case .array(let items):
            if items.isEmpty { out += "\(tabs)<array/>\n"; return }
            out += "\(tabs)<array>\n"
            for item in items { item.write(to: &out, indent: indent + 1) }
            out += "\(tabs)</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty { out += "\(tabs)<dict/>\n"; return }
            out += "\(tabs)<dict>\n"
            for (key, value) in entries {
                out += "\(tabs)\t<key>\(Self.escape(key))</key>\n"
                value.write(to: &out, indent: indent + 1)
            }
            out += "\(tabs)</dict>\n"
        }
    }

    /// Text as XML character data. Characters XML 1.0 cannot carry at all (control characters
    /// other than tab and line breaks, U+FFFE, U+FFFF) are left out rather than written: input
    /// validation refuses them, and this keeps every export well-formed whatever was stored.
    /// A carriage return is written as `&#13;` because XML readers turn a literal one into `\n`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\r": escaped += "&#13;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Reals always carry a decimal point or exponent, so they never read back as integers.
    static func format(_ number: Double) -> String {
        let text = String(number)
        return text.contains(".") || text.contains("e") || text.contains("n") || text.contains("i") ? text : text + ".0"
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    // MARK: JSON

    /// The same value as JSON: keys in insertion order, dates as ISO 8601, data as base64.
    public func jsonData() -> Data {
        var out = ""
        writeJSON(to: &out)
        return Data(out.utf8)
    }

    private func writeJSON(to out: inout String) {
        switch self {
        case .string(let text): out += Self.jsonString(text)
        case .integer(let number): out += String(number)
        case .real(let number): out += number.isFinite ? String(number) : "null"
        case .boolean(let flag): out += flag ? "true" : "false"
        case .date(let date): out += Self.jsonString(Self.iso(date))
        case .data(let bytes): out += Self.jsonString(Data(bytes).base64EncodedString())
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.writeJSON(to: &out)
            }
            out += "]"
        case .dictionary(let entries):
            out += "{"
            for (index, (key, value)) in entries.enumerated() {
                if index > 0 { out += "," }
                out += Self.jsonString(key) + ":"
                value.writeJSON(to: &out)
            }
            out += "}"
        }
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
