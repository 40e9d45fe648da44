import Domain
import Foundation

/// Reads one NDJSON line of a log upload in one pass over its bytes, for the lines devices
/// send: what `JSONDecoder` would make of the same bytes, or nil for anything it might see
/// differently.
///
/// `JSONDecoder` spent about 5.5 µs a line on uploads (building a dictionary of each object's
/// keys, boxing every value through the generic `Decoder` protocols), more than the log
/// store's insert of the line. This reader makes the strings straight from the bytes. It never
/// decides a refusal: nil sends the line to `JSONDecoder`, whose answer — a `Line` or the error
/// that names what is wrong — stands, so every message an upload can get is the decoder's. It
/// reads strictly, so it never accepts what the decoder would refuse, and declines whatever it
/// does not need to read quickly: `null`, a key written with escapes, a key given twice, a
/// lone surrogate, nesting deeper than `maximumDepth`.
struct LogLineReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    /// How deep an ignored value may nest before the line is left to the decoder.
    static let maximumDepth = 32

    /// The line `bytes` hold (one JSON object, spaces around it allowed), or nil.
    static func line(_ bytes: UnsafeBufferPointer<UInt8>) -> LogUpload.Line? {
        var reader = LogLineReader(bytes: bytes)
        return reader.line()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private enum Key {
        case app, appVersion, level, type, timestamp, message, fields, other
    }

    private mutating func line() -> LogUpload.Line? {
        var app, appVersion, level, type, timestamp, message: String?
        var fields: [String: LogUpload.FieldValue]?
        skipSpace()
        let read = container(.openBrace, .closeBrace) { reader in
            guard let key = reader.member(named: { $0.key() }) else { return false }
            switch key {
            case .app: guard app == nil, let value = reader.string() else { return false }; app = value
            case .appVersion: guard appVersion == nil, let value = reader.string() else { return false }; appVersion = value
            case .level: guard level == nil, let value = reader.string() else { return false }; level = value
            case .type: guard type == nil, let value = reader.string() else { return false }; type = value
            case .timestamp: guard timestamp == nil, let value = reader.string() else { return false }; timestamp = value
            case .message: guard message == nil, let value = reader.string() else { return false }; message = value
            case .fields: guard fields == nil, let value = reader.fieldValues() else { return false }; fields = value
            case .other: return reader.skipValue(depth: 1)
            }
            return true
        }
        skipSpace()
        guard read, at == bytes.count, let app, let level, let type, let timestamp, let message else { return nil }
        return LogUpload.Line(app: app, appVersion: appVersion, level: level, type: type, timestamp: timestamp,
                              message: message, fields: fields)
    }

    /// An object key the line's shape names, or `.other`; nil for a key written with an escape
    /// (the decoder compares keys after unescaping them) or for no string here at all.
    private mutating func key() -> Key? {
        guard take(.quote) else { return nil }
        let start = at
        while at < bytes.count, bytes[at] != .quote {
            guard bytes[at] != .backslash, bytes[at] >= 0x20 else { return nil }
            at += 1
        }
        guard at < bytes.count else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[start..<at])
        at += 1
        // Every key of ours is ASCII; an unread key beyond ASCII is left to the decoder, which
        // would refuse malformed UTF-8 in it.
        guard name.allSatisfy({ $0 < 0x80 }) else { return nil }
        return switch String(decoding: name, as: UTF8.self) {
        case "app": .app
        case "appVersion": .appVersion
        case "level": .level
        case "type": .type
        case "timestamp": .timestamp
        case "message": .message
        case "fields": .fields
        default: .other
        }
    }

    /// `fields`: an object of strings, numbers and booleans, each kept as `FieldValue` keeps it.
    private mutating func fieldValues() -> [String: LogUpload.FieldValue]? {
        var values: [String: LogUpload.FieldValue] = [:]
        let read = container(.openBrace, .closeBrace) { reader in
            guard let name = reader.member(named: { $0.string() }) else { return false }
            let text: String
            if let value = reader.string() { text = value }
            else if let flag = reader.literal() {
                guard let flag else { return false }  // null: the decoder refuses it as a field's value
                text = flag ? "true" : "false"
            } else if let number = reader.number() { text = NumberText.plain(number) }
            else { return false }
            return values.updateValue(LogUpload.FieldValue(text: text), forKey: name) == nil
        }
        return read ? values : nil
    }

    /// Steps over one JSON value of a key the console does not read, checking it as strictly as
    /// the decoder would.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, at < bytes.count else { return false }
        switch bytes[at] {
        case .quote: return string() != nil
        case .openBrace: return container(.openBrace, .closeBrace) { $0.member(named: { $0.string() }) != nil && $0.skipValue(depth: depth + 1) }
        case .openBracket: return container(.openBracket, .closeBracket) { $0.skipValue(depth: depth + 1) }
        default: return literal() != nil || number() != nil
        }
    }

    /// An object or array from `open` to `close`, each element (spaces around it skipped) read
    /// by `element`; false when anything in it is not as JSON writes it.
    private mutating func container(_ open: UInt8, _ close: UInt8, element: (inout LogLineReader) -> Bool) -> Bool {
        guard take(open) else { return false }
        skipSpace()
        if take(close) { return true }
        repeat {
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
        } while take(.comma)
        return take(close)
    }

    /// A member's name as `name` reads it, and the colon after it; the reader is then at its value.
    private mutating func member<Name>(named name: (inout LogLineReader) -> Name?) -> Name? {
        guard let read = name(&self) else { return nil }
        skipSpace()
        guard take(.colon) else { return nil }
        skipSpace()
        return read
    }

    /// A JSON string, unescaped; nil for malformed UTF-8, a control character, a bad escape or
    /// a lone surrogate.
    private mutating func string() -> String? {
        guard take(.quote) else { return nil }
        let start = at
        while at < bytes.count {
            switch bytes[at] {
            case .quote:
                defer { at += 1 }
                return Self.validString(UnsafeBufferPointer(rebasing: bytes[start..<at]))
            case .backslash:
                return escapedString(from: start)
            case 0..<0x20:
                return nil
            default:
                at += 1
            }
        }
        return nil
    }

    /// `utf8` as a String, or nil when it is not well-formed UTF-8. `String(validating:)` says
    /// the same but, generic over its input, looked up type metadata on every call (a fifth of
    /// reading a line); decoding repairs malformed bytes, so its bytes equal these only when
    /// there was nothing to repair.
    private static func validString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: utf8, as: UTF8.self)
        let unrepaired = string.withUTF8 { decoded in
            decoded.count == utf8.count && (utf8.isEmpty || memcmp(decoded.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
        }
        return unrepaired ? string : nil
    }

    /// The rest of a string that has escapes, from its first byte `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var unescaped = Array(UnsafeBufferPointer(rebasing: bytes[start..<at]))
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case .quote:
                return unescaped.withUnsafeBufferPointer(Self.validString)
            case 0..<0x20:
                return nil
            case .backslash:
                guard at < bytes.count else { return nil }
                let escape = bytes[at]
                at += 1
                switch escape {
                case .quote, .backslash, .slash: unescaped.append(escape)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    unescaped.append(contentsOf: scalar.utf8)
                default: return nil
                }
            default:
                unescaped.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (after its `\u`), a surrogate pair read as one; nil for a lone
    /// surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hexQuad() else { return nil }
        switch unit {
        case 0xD800..<0xDC00:
            guard at + 1 < bytes.count, bytes[at] == .backslash, bytes[at + 1] == UInt8(ascii: "u") else { return nil }
            at += 2
            guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00..<0xE000: return nil
        default: return Unicode.Scalar(unit)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    /// `true` or `false` as a Bool, `null` as .some(nil); nil when no literal is here.
    private mutating func literal() -> Bool?? {
        if take("true") { return .some(true) }
        if take("false") { return .some(false) }
        if take("null") { return .some(nil) }
        return nil
    }

    private mutating func take(_ word: StaticString) -> Bool {
        let end = at + word.utf8CodeUnitCount
        guard end <= bytes.count, UnsafeBufferPointer(rebasing: bytes[at..<end]).elementsEqual(
            UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)) else { return false }
        at = end
        return true
    }

    /// A number as JSON writes one (`-`, no leading zeros, a fraction and an exponent each
    /// with digits), read to the nearest Double as the decoder reads it; nil beyond Double's range.
    private mutating func number() -> Double? {
        let start = at
        _ = take(.minus)
        guard at < bytes.count, bytes[at].isDigit else { return nil }
        if !take(.zero) { skipDigits() }
        if take(.dot) {
            guard at < bytes.count, bytes[at].isDigit else { return nil }
            skipDigits()
        }
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            if !take(.plus) { _ = take(.minus) }
            guard at < bytes.count, bytes[at].isDigit else { return nil }
            skipDigits()
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)),
              value.isFinite else { return nil }
        return value
    }

    private mutating func skipDigits() {
        while at < bytes.count, bytes[at].isDigit { at += 1 }
    }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == .space || bytes[at] == .tab || bytes[at] == .newline || bytes[at] == .carriageReturn {
            at += 1
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }
}

private extension UInt8 {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
