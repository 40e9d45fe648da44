/// Entity and character references: the only substitutions this reader ever makes.
extension XMLDocumentParser {
    /// XML's five predefined entities. Nothing can add to this table: declarations are
    /// refused, which is what makes entity expansion attacks impossible.
    private static let predefinedEntities: [String: Unicode.Scalar] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'",
    ]

    /// Reads `&name;`, `&#123;` or `&#x7B;` at the current '&' and returns the character.
    func readReference() throws(SyntaxProblem) -> Unicode.Scalar {
        let ampersand = offset
        offset += 1
        if !atEnd && current == ASCII.hash {
            return try readCharacterReference(startingAt: ampersand)
        }
        guard !atEnd, XMLSource.isNameStart(current) else {
            throw problem("a literal '&' must be written as &amp;", at: ampersand)
        }
        let name = try readName(after: "'&'")
        guard !atEnd, current == ASCII.semicolon else {
            throw problem("the reference &\(name) is not closed with ';'", at: ampersand)
        }
        offset += 1
        guard let scalar = Self.predefinedEntities[name] else {
            throw problem(
                "unknown entity &\(name); (only &lt; &gt; &amp; &quot; &apos; and numeric references are accepted)",
                at: ampersand)
        }
        return scalar
    }

    private func readCharacterReference(startingAt ampersand: Int) throws(SyntaxProblem) -> Unicode.Scalar {
        offset += 1
        let isHexadecimal = !atEnd && current == ASCII.lowercaseX
        if isHexadecimal { offset += 1 }
        let digitsStart = offset
        var value: UInt32 = 0
        var tooLarge = false
        while !atEnd, let digit = Self.digitValue(current, hexadecimal: isHexadecimal) {
            // Stop accumulating once past the Unicode range, so a long run of digits cannot overflow.
            if !tooLarge { value = value * (isHexadecimal ? 16 : 10) + digit }
            if value > 0x10FFFF { tooLarge = true }
            offset += 1
        }
        let written = String(decoding: bytes[ampersand..<offset], as: UTF8.self)
        guard offset > digitsStart else {
            throw problem("expected \(isHexadecimal ? "hexadecimal " : "")digits in the character reference \(written)", at: ampersand)
        }
        guard !atEnd, current == ASCII.semicolon else {
            throw problem("the character reference \(written) is not closed with ';'", at: ampersand)
        }
        offset += 1
        guard !tooLarge, let scalar = Unicode.Scalar(value), Self.isXMLCharacter(scalar) else {
            throw problem("\(written); refers to a character XML does not allow", at: ampersand)
        }
        return scalar
    }

    private static func digitValue(_ byte: UInt8, hexadecimal: Bool) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x61...0x66 where hexadecimal: UInt32(byte - 0x61 + 10)
        case 0x41...0x46 where hexadecimal: UInt32(byte - 0x41 + 10)
        default: nil
        }
    }

    /// XML 1.0's Char production; `Unicode.Scalar` already excludes surrogates.
    private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }
}
