/// The fixed strings that open and close XML markup.
enum XMLLiteral {
    static let xmlDeclaration = Array("<?xml".utf8)
    static let processingInstructionOpening = Array("<?".utf8)
    static let processingInstructionClosing = Array("?>".utf8)
    static let commentOpening = Array("<!--".utf8)
    static let doubleHyphen = Array("--".utf8)
    static let cdataOpening = Array("<![CDATA[".utf8)
    static let cdataClosing = Array("]]>".utf8)
    static let doctypeOpening = Array("<!DOCTYPE".utf8)
    static let entityOpening = Array("<!ENTITY".utf8)
    static let system = Array("SYSTEM".utf8)
    static let `public` = Array("PUBLIC".utf8)
}

/// Tags, comments, processing instructions, CDATA and the DOCTYPE.
extension XMLDocumentParser {
    static let attributesScannedForDuplicates = 8

    struct StartTag {
        let name: String
        let attributes: [XMLAttribute]
        let isSelfClosing: Bool
    }

    /// A name at the current offset; `context` says what it follows, for the problem.
    func readName(after context: String) throws(SyntaxProblem) -> String {
        guard !atEnd, XMLSource.isNameStart(current) else {
            throw problem("expected a name after \(context), found \(source.quotedCharacter(at: offset))")
        }
        let start = offset
        while offset < bytes.count && XMLSource.isNameCharacter(bytes[offset]) { offset += 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Reads `<name attribute="value" ...>` or `.../>` starting at its '<'.
    func readStartTag() throws(SyntaxProblem) -> StartTag {
        let tagStart = offset
        offset += 1
        let name = try readName(after: "'<'")
        var attributes: [XMLAttribute] = []
        // Filled only once an element has many attributes: scanning a few is cheaper than
        // hashing, and the set keeps thousands of attributes from costing n² comparisons.
        var seen: Set<String> = []
        while true {
            let hadWhitespace = skipWhitespace()
            guard !atEnd else { throw problem("the tag <\(name)> is never closed with '>'", at: tagStart) }
            if current == ASCII.greaterThan {
                offset += 1
                return StartTag(name: name, attributes: attributes, isSelfClosing: false)
            }
            if current == ASCII.slash {
                guard byte(at: offset + 1) == ASCII.greaterThan else {
                    throw problem("expected '>' after '/' in the tag <\(name)>", at: offset + 1)
                }
                offset += 2
                return StartTag(name: name, attributes: attributes, isSelfClosing: true)
            }
            guard XMLSource.isNameStart(current) else {
                throw problem("unexpected \(source.quotedCharacter(at: offset)) in the tag <\(name)>")
            }
            guard hadWhitespace else { throw problem("expected a space before the attribute in the tag <\(name)>") }
            let attributeStart = offset
            let attributeName = try readName(after: "a space")
            skipWhitespace()
            guard !atEnd, current == ASCII.equals else {
                throw problem("expected '=' after the attribute name \(attributeName)")
            }
            offset += 1
            skipWhitespace()
            let value = try readAttributeValue(named: attributeName)
            if attributes.count == Self.attributesScannedForDuplicates { seen = Set(attributes.map(\.name)) }
            let isDuplicate = attributes.count < Self.attributesScannedForDuplicates
                ? attributes.contains { $0.name == attributeName } : !seen.insert(attributeName).inserted
            guard !isDuplicate else {
                throw problem("the attribute \(attributeName) appears twice in the tag <\(name)>", at: attributeStart)
            }
            attributes.append(XMLAttribute(name: attributeName, value: value))
        }
    }

    /// A quoted value with references replaced; literal tabs and line breaks become spaces,
    /// as XML's attribute-value normalisation requires.
    private func readAttributeValue(named name: String) throws(SyntaxProblem) -> String {
        guard !atEnd, current == ASCII.quote || current == ASCII.apostrophe else {
            throw problem("the value of the attribute \(name) must be in quotes")
        }
        let quote = current
        let opening = offset
        offset += 1
        // Most values have nothing to replace; read those straight from the source.
        var plainEnd = offset
        while plainEnd < bytes.count, bytes[plainEnd] >= ASCII.space, bytes[plainEnd] != quote,
              bytes[plainEnd] != ASCII.ampersand, bytes[plainEnd] != ASCII.lessThan { plainEnd += 1 }
        if plainEnd < bytes.count && bytes[plainEnd] == quote {
            defer { offset = plainEnd + 1 }
            return String(decoding: bytes[offset..<plainEnd], as: UTF8.self)
        }
        var value = Array(bytes[offset..<plainEnd])
        offset = plainEnd
        while true {
            guard !atEnd else { throw problem("the value of the attribute \(name) is never closed", at: opening) }
            switch current {
            case quote:
                offset += 1
                return String(decoding: value, as: UTF8.self)
            case ASCII.lessThan:
                throw problem("'<' is not allowed in an attribute value; write &lt;")
            case ASCII.ampersand:
                let scalar = try readReference()
                value.append(contentsOf: String(scalar).utf8)
            case ASCII.carriageReturn:
                value.append(ASCII.space)
                offset += byte(at: offset + 1) == ASCII.lineFeed ? 2 : 1
            case ASCII.tab, ASCII.lineFeed:
                value.append(ASCII.space)
                offset += 1
            default:
                value.append(current)
                offset += 1
            }
        }
    }

    /// Skips `<!-- ... -->`. XML forbids "--" inside a comment.
    func skipComment() throws(SyntaxProblem) {
        let opening = offset
        guard let hyphens = source.find(XMLLiteral.doubleHyphen, from: offset + XMLLiteral.commentOpening.count) else {
            throw problem("the comment is never closed with '-->'", at: opening)
        }
        guard byte(at: hyphens + 2) == ASCII.greaterThan else {
            throw problem("a comment must not contain '--'", at: hyphens)
        }
        offset = hyphens + 3
    }

    /// Skips `<?target ...?>`. Processing instructions carry nothing the console reads.
    func skipProcessingInstruction(allowingDeclaration: Bool) throws(SyntaxProblem) {
        let opening = offset
        offset += XMLLiteral.processingInstructionOpening.count
        let target = try readName(after: "'<?'")
        if target.lowercased() == "xml" && !allowingDeclaration {
            throw problem("the XML declaration <?xml ...?> is only allowed at the very start of the document", at: opening)
        }
        guard let closing = source.find(XMLLiteral.processingInstructionClosing, from: offset) else {
            throw problem("<?\(target) is never closed with '?>'", at: opening)
        }
        offset = closing + XMLLiteral.processingInstructionClosing.count
    }

    /// The raw text of `<![CDATA[ ... ]]>`, line breaks normalised to LF.
    func readCDATA() throws(SyntaxProblem) -> [UInt8] {
        let opening = offset
        let start = offset + XMLLiteral.cdataOpening.count
        guard let closing = source.find(XMLLiteral.cdataClosing, from: start) else {
            throw problem("the CDATA section is never closed with ']]>'", at: opening)
        }
        offset = closing + XMLLiteral.cdataClosing.count
        var data: [UInt8] = []
        data.reserveCapacity(closing - start)
        var index = start
        while index < closing {
            let byte = bytes[index]
            if byte == ASCII.carriageReturn {
                data.append(ASCII.lineFeed)
                if index + 1 < closing && bytes[index + 1] == ASCII.lineFeed { index += 1 }
            } else {
                data.append(byte)
            }
            index += 1
        }
        return data
    }
}
