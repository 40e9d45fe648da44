/// The document as UTF-8 bytes, with what is needed to turn a byte offset into the line and
/// column a person sees.
///
/// Reading bytes rather than `Character`s keeps the reader fast even in debug builds; every
/// byte that matters to XML syntax is ASCII, and UTF-8 never uses ASCII bytes inside a
/// multi-byte character, so non-ASCII text simply passes through.
struct XMLSource {
    let bytes: [UInt8]
    /// Offset of the first byte of each line; a line ends at LF, CR LF or a lone CR.
    private let lineStarts: [Int]

    /// Refuses characters XML 1.0 cannot contain (C0 controls other than tab and line breaks,
    /// U+FFFE, U+FFFF) up front, so the rest of the reader never has to think about them.
    init(_ text: String) throws(SyntaxProblem) {
        var bytes = Array(text.utf8)
        // A byte order mark is an encoding signature, not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var lineStarts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.lineFeed {
                lineStarts.append(index + 1)
            } else if byte == ASCII.carriageReturn {
                if index + 1 >= bytes.count || bytes[index + 1] != ASCII.lineFeed { lineStarts.append(index + 1) }
            } else if byte < 0x20 && byte != ASCII.tab {
                throw Self.forbidden(byte: byte, at: index, bytes: bytes, lineStarts: lineStarts)
            } else if byte == 0xEF && index + 2 < bytes.count && bytes[index + 1] == 0xBF
                && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF) {
                throw Self.forbidden(byte: byte, at: index, bytes: bytes, lineStarts: lineStarts)
            }
            index += 1
        }
        self.bytes = bytes
        self.lineStarts = lineStarts
    }

    private static func forbidden(byte: UInt8, at offset: Int, bytes: [UInt8], lineStarts: [Int]) -> SyntaxProblem {
        let scalar = String(decoding: bytes[offset..<min(offset + 3, bytes.count)], as: UTF8.self).unicodeScalars.first
        let code = byte < 0x20 ? UInt32(byte) : scalar?.value ?? 0
        let (line, column) = position(of: offset, bytes: bytes, lineStarts: lineStarts)
        return SyntaxProblem(line: line, column: column, reason: "the character \(ASCII.unicodeName(code)) is not allowed in XML")
    }

    var count: Int { bytes.count }

    func line(of offset: Int) -> Int {
        Self.lineIndex(of: offset, in: lineStarts) + 1
    }

    func problem(at offset: Int, _ reason: String) -> SyntaxProblem {
        let (line, column) = Self.position(of: offset, bytes: bytes, lineStarts: lineStarts)
        return SyntaxProblem(line: line, column: column, reason: reason)
    }

    /// Columns count characters, which costs a decode of the line; that only happens once,
    /// for the problem being reported.
    private static func position(of offset: Int, bytes: [UInt8], lineStarts: [Int]) -> (line: Int, column: Int) {
        let clamped = min(max(offset, 0), bytes.count)
        let index = lineIndex(of: clamped, in: lineStarts)
        let prefix = String(decoding: bytes[lineStarts[index]..<clamped], as: UTF8.self)
        return (index + 1, prefix.count + 1)
    }

    /// Binary search for the last line starting at or before `offset`.
    private static func lineIndex(of offset: Int, in lineStarts: [Int]) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func starts(with literal: [UInt8], at offset: Int) -> Bool {
        guard offset + literal.count <= bytes.count else { return false }
        for index in 0..<literal.count where bytes[offset + index] != literal[index] { return false }
        return true
    }

    /// The offset of the next occurrence of `literal` at or after `offset`.
    func find(_ literal: [UInt8], from offset: Int) -> Int? {
        guard let first = literal.first else { return offset }
        var index = offset
        while index + literal.count <= bytes.count {
            if bytes[index] == first && starts(with: literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The character at `offset` quoted for a reason, e.g. `'x'`.
    func quotedCharacter(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the text" }
        let character = String(decoding: bytes[offset..<min(offset + 4, bytes.count)], as: UTF8.self).first ?? "?"
        return "'\(character)'"
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }

    /// Any non-ASCII byte is accepted in names: XML 1.0 allows most of Unicode there and
    /// checking its exact ranges would refuse nothing dangerous.
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }
}
