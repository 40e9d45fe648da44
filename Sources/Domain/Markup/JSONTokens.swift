/// Strings and numbers, checked against RFC 8259's exact grammar.
extension JSONSyntaxChecker {
    /// Reads a string starting at its opening quote.
    mutating func readString() throws(SyntaxProblem) {
        let opening = offset
        offset += 1
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case ASCII.quote:
                offset += 1
                return
            case JSONByte.backslash:
                try readEscape()
            case ASCII.lineFeed, ASCII.carriageReturn:
                throw problem("a string cannot contain a line break; write \\n")
            case 0x00..<0x20:
                throw problem("the control character \(ASCII.unicodeName(UInt32(byte))) must be escaped in a string")
            default:
                offset += 1
            }
        }
        throw problem("unterminated string", at: opening)
    }

    private mutating func readEscape() throws(SyntaxProblem) {
        let backslash = offset
        offset += 1
        guard offset < bytes.count else { throw problem("unterminated string") }
        switch bytes[offset] {
        case ASCII.quote, JSONByte.backslash, ASCII.slash, 0x62, 0x66, 0x6E, 0x72, 0x74:  // " \ / b f n r t
            offset += 1
        case JSONByte.lowercaseU:
            offset += 1
            let unit = try readHexQuad(escapeAt: backslash)
            try checkSurrogate(unit, escapeAt: backslash)
        default:
            throw problem("invalid escape \\\(character(at: offset)) in a string", at: backslash)
        }
    }

    /// The four hex digits after `\u`.
    private mutating func readHexQuad(escapeAt backslash: Int) throws(SyntaxProblem) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = Self.hexValue(bytes[offset]) else {
                throw problem("\\u must be followed by four hexadecimal digits", at: backslash)
            }
            unit = unit * 16 + digit
            offset += 1
        }
        return unit
    }

    /// RFC 8259's grammar lets a lone surrogate through, but no decoder can turn one into a
    /// string, so it is refused here, where the position can still be reported.
    private mutating func checkSurrogate(_ unit: UInt32, escapeAt backslash: Int) throws(SyntaxProblem) {
        if (0xDC00...0xDFFF).contains(unit) {
            throw problem("\\u\(Self.hex(unit)) is the second half of a surrogate pair without the first", at: backslash)
        }
        guard (0xD800...0xDBFF).contains(unit) else { return }
        let pairStart = offset
        let followedByEscape = offset + 1 < bytes.count
            && bytes[offset] == JSONByte.backslash && bytes[offset + 1] == JSONByte.lowercaseU
        if followedByEscape {
            offset += 2
            let low = try readHexQuad(escapeAt: pairStart)
            if (0xDC00...0xDFFF).contains(low) { return }
        }
        throw problem("\\u\(Self.hex(unit)) is the first half of a surrogate pair without the second", at: backslash)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func readNumber() throws(SyntaxProblem) {
        if bytes[offset] == JSONByte.minus {
            offset += 1
            guard isDigit(at: offset) else { throw problem("expected a digit after '-'") }
        }
        if bytes[offset] == 0x30 {
            offset += 1
            if isDigit(at: offset) { throw problem("leading zeros are not allowed in numbers", at: offset - 1) }
        } else {
            skipDigits()
        }
        if offset < bytes.count && bytes[offset] == JSONByte.dot {
            offset += 1
            guard isDigit(at: offset) else { throw problem("expected a digit after the decimal point") }
            skipDigits()
        }
        if offset < bytes.count && (bytes[offset] == JSONByte.lowercaseE || bytes[offset] == JSONByte.uppercaseE) {
            offset += 1
            if offset < bytes.count && (bytes[offset] == JSONByte.plus || bytes[offset] == JSONByte.minus) { offset += 1 }
            guard isDigit(at: offset) else { throw problem("expected a digit in the exponent") }
            skipDigits()
        }
    }

    private func isDigit(at index: Int) -> Bool {
        index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39
    }

    private mutating func skipDigits() {
        while isDigit(at: offset) { offset += 1 }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        default: nil
        }
    }

    private static func hex(_ unit: UInt32) -> String {
        String(ASCII.unicodeName(unit).dropFirst(2))
    }
}
