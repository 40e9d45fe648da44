/// The state machine behind `JSONSyntax.check`. Open arrays and objects are kept on an
/// explicit stack, so deep nesting is refused by the depth limit, never by a stack overflow.
struct JSONSyntaxChecker {
    /// What may come next, given what has been read.
    private enum Expectation {
        case value
        case valueOrArrayEnd
        case valueAfterComma
        case keyOrObjectEnd
        case keyAfterComma
        case colon
        case commaOrEnd
        case endOfText
    }

    private enum Container {
        case array, object
    }

    let bytes: [UInt8]
    private let maximumDepth: Int
    var offset = 0
    private var containers: [Container] = []
    private var expectation = Expectation.value
    /// Where the last ',' was, so a trailing comma is reported where it must be deleted.
    private var lastComma = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        // RFC 8259 lets a reader ignore a byte order mark; pasted text sometimes carries one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    mutating func checkDocument() throws(SyntaxProblem) {
        while true {
            skipWhitespace()
            guard offset < bytes.count else {
                if expectation == .endOfText { return }
                throw endOfTextProblem()
            }
            let byte = bytes[offset]
            switch expectation {
            case .value, .valueAfterComma, .valueOrArrayEnd:
                if byte == ASCII.closingBracket && expectation != .value {
                    guard expectation == .valueOrArrayEnd else { throw problem("trailing comma is not allowed", at: lastComma) }
                    offset += 1
                    closeContainer()
                } else {
                    try readValue()
                }
            case .keyOrObjectEnd, .keyAfterComma:
                if byte == JSONByte.closingBrace {
                    guard expectation == .keyOrObjectEnd else { throw problem("trailing comma is not allowed", at: lastComma) }
                    offset += 1
                    closeContainer()
                } else if byte == ASCII.quote {
                    try readString()
                    expectation = .colon
                } else {
                    throw problem(expectation == .keyOrObjectEnd
                        ? "expected a key in double quotes or '}'" : "expected a key in double quotes after ','")
                }
            case .colon:
                guard byte == JSONByte.colon else { throw problem("expected ':' after an object key") }
                offset += 1
                expectation = .value
            case .commaOrEnd:
                try readCommaOrEnd(byte)
            case .endOfText:
                throw problem("unexpected text after the JSON value")
            }
        }
    }

    private mutating func readCommaOrEnd(_ byte: UInt8) throws(SyntaxProblem) {
        let inObject = containers.last == .object
        if byte == JSONByte.comma {
            lastComma = offset
            offset += 1
            expectation = inObject ? .keyAfterComma : .valueAfterComma
        } else if byte == (inObject ? JSONByte.closingBrace : ASCII.closingBracket) {
            offset += 1
            closeContainer()
        } else {
            throw problem(inObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
        }
    }

    private mutating func readValue() throws(SyntaxProblem) {
        switch bytes[offset] {
        case JSONByte.openingBrace:
            try openContainer(.object)
        case ASCII.openingBracket:
            try openContainer(.array)
        case ASCII.quote:
            try readString()
            finishValue()
        case JSONByte.minus, 0x30...0x39:
            try readNumber()
            finishValue()
        case JSONByte.lowercaseT: try readLiteral("true")
        case JSONByte.lowercaseF: try readLiteral("false")
        case JSONByte.lowercaseN: try readLiteral("null")
        case ASCII.apostrophe:
            throw problem("strings must be in double quotes")
        case JSONByte.closingBrace, ASCII.closingBracket, JSONByte.comma, JSONByte.colon:
            throw problem("expected a value, found \(quotedCharacter(at: offset))")
        default:
            throw problem("unexpected \(quotedCharacter(at: offset)); expected a value")
        }
    }

    private mutating func openContainer(_ container: Container) throws(SyntaxProblem) {
        guard containers.count < maximumDepth else {
            throw problem("arrays and objects are nested more than \(maximumDepth) levels deep")
        }
        containers.append(container)
        offset += 1
        expectation = container == .object ? .keyOrObjectEnd : .valueOrArrayEnd
    }

    private mutating func closeContainer() {
        containers.removeLast()
        finishValue()
    }

    private mutating func finishValue() {
        expectation = containers.isEmpty ? .endOfText : .commaOrEnd
    }

    private mutating func readLiteral(_ word: String) throws(SyntaxProblem) {
        let literal = Array(word.utf8)
        guard offset + literal.count <= bytes.count, Array(bytes[offset..<offset + literal.count]) == literal else {
            throw problem("unexpected \(quotedCharacter(at: offset)); expected a value (did you mean \(word)?)")
        }
        offset += literal.count
        finishValue()
    }

    private func endOfTextProblem() -> SyntaxProblem {
        switch containers.last {
        case nil: problem("the text is empty; expected a JSON value")
        case .array: problem("the text ends inside an array; expected ']'")
        case .object: problem("the text ends inside an object; expected '}'")
        }
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn: offset += 1
            default: return
            }
        }
    }

    // MARK: Reporting

    func problem(_ reason: String, at index: Int? = nil) -> SyntaxProblem {
        let target = min(index ?? offset, bytes.count)
        // Lines end at LF, CR LF or a lone CR; counted only once, for the problem reported.
        var line = 1
        var lineStart = 0
        var scan = 0
        while scan < target {
            let byte = bytes[scan]
            if byte == ASCII.lineFeed || (byte == ASCII.carriageReturn && (scan + 1 >= bytes.count || bytes[scan + 1] != ASCII.lineFeed)) {
                line += 1
                lineStart = scan + 1
            }
            scan += 1
        }
        let column = String(decoding: bytes[lineStart..<target], as: UTF8.self).count + 1
        return SyntaxProblem(line: line, column: column, reason: reason)
    }

    func quotedCharacter(at index: Int) -> String {
        "'\(character(at: index))'"
    }

    func character(at index: Int) -> Character {
        String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).first ?? "?"
    }
}

/// The JSON punctuation `ASCII` does not already name.
enum JSONByte {
    static let openingBrace: UInt8 = 0x7B
    static let closingBrace: UInt8 = 0x7D
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let backslash: UInt8 = 0x5C
    static let lowercaseT: UInt8 = 0x74
    static let lowercaseF: UInt8 = 0x66
    static let lowercaseN: UInt8 = 0x6E
    static let lowercaseU: UInt8 = 0x75
    static let lowercaseE: UInt8 = 0x65
    static let uppercaseE: UInt8 = 0x45
}
