/// The fields of an `application/x-www-form-urlencoded` body. Values stay strings so a form
/// with bad input can be re-rendered exactly as the user typed it.
struct FormFields: Sendable {
    private var values: [String: [String]] = [:]

    init() {}

    init(pairs: [(String, String)]) {
        for (name, value) in pairs { values[name, default: []].append(value) }
    }

    /// Reads an `application/x-www-form-urlencoded` body; nil when it is not one (a `%` not
    /// followed by two hex digits, or bytes that are not UTF-8), so that no field is silently
    /// read as something the browser did not send.
    init?(urlEncoded body: some Collection<UInt8>) {
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { return nil }
            values[name, default: []].append(value)
        }
    }

    /// The first value of a field, or "" when it was not sent.
    subscript(_ name: String) -> String { values[name]?.first ?? "" }

    /// Every field and value, names in order and each name's values in the order sent: a form
    /// sent again from hidden fields (a confirmation) reads back the same.
    var pairs: [(name: String, value: String)] {
        values.keys.sorted().flatMap { name in values[name]!.map { (name, $0) } }
    }

    /// Every value of a repeated field (checkbox groups, ordered lists), in the order sent.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Replaces a field's values, for a value the server worked out (an uploaded file's key).
    mutating func set(_ name: String, _ value: String) {
        values[name] = [value]
    }

    /// Replaces every value of a repeated field, for rows the server filled in (a specfile's keys).
    mutating func setAll(_ name: String, _ newValues: [String]) {
        values[name] = newValues
    }

    /// Checkboxes are sent only when ticked.
    func isChecked(_ name: String) -> Bool { values[name] != nil }

    private static func decode(_ encoded: some Collection<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var iterator = encoded.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
