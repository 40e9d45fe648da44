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
    struct StartTag {
        let name: String
        let attributes: [XMLAttribute]
        let isSelfClosing: Bool
    }

    /// A name at the current offset; `context` says what it follows, for the problem.
    mutating func readName(after context: String) throws(XMLProblem) -> String {
        guard !atEnd, XMLSource.isNameStart(current) else {
            throw problem("expected a name after \(context), found \(source.quotedCharacter(at: offset))")
        }
        let start = offset
        while !atEnd && XMLSource.isNameCharacter(current) { offset += 1 }
        return String(decoding: source.bytes[start..<offset], as: UTF8.self)
    }

    /// Reads `<name attribute="value" ...>` or `.../>` starting at its '<'.
    mutating func readStartTag() throws(XMLProblem) -> StartTag {
        let tagStart = offset
        offset += 1
        let name = try readName(after: "'<'")
        var attributes: [XMLAttribute] = []
        // A set rather than a scan of `attributes`, so many attributes cannot cost n² time.
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
            guard seen.insert(attributeName).inserted else {
                throw problem("the attribute \(attributeName) appears twice in the tag <\(name)>", at: attributeStart)
            }
            attributes.append(XMLAttribute(name: attributeName, value: value))
        }
    }

    /// A quoted value with references replaced; literal tabs and line breaks become spaces,
    /// as XML's attribute-value normalisation requires.
    private mutating func readAttributeValue(named name: String) throws(XMLProblem) -> String {
        guard !atEnd, current == ASCII.quote || current == ASCII.apostrophe else {
            throw problem("the value of the attribute \(name) must be in quotes")
        }
        let quote = current
        let opening = offset
        offset += 1
        var value: [UInt8] = []
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
    mutating func skipComment() throws(XMLProblem) {
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
    mutating func skipProcessingInstruction(allowingDeclaration: Bool) throws(XMLProblem) {
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
    mutating func readCDATA() throws(XMLProblem) -> [UInt8] {
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
            let byte = source.bytes[index]
            if byte == ASCII.carriageReturn {
                data.append(ASCII.lineFeed)
                if index + 1 < closing && source.bytes[index + 1] == ASCII.lineFeed { index += 1 }
            } else {
                data.append(byte)
            }
            index += 1
        }
        return data
    }

    /// Skips `<!DOCTYPE name>`, `<!DOCTYPE name SYSTEM "uri">` or
    /// `<!DOCTYPE name PUBLIC "id" "uri">`. The identifiers are never fetched. An internal
    /// subset is where entities are declared, so it is refused outright.
    mutating func skipDoctype() throws(XMLProblem) {
        offset += XMLLiteral.doctypeOpening.count
        guard skipWhitespace() else { throw problem("expected a space after <!DOCTYPE") }
        _ = try readName(after: "<!DOCTYPE")
        let hadWhitespace = skipWhitespace()
        if hadWhitespace && source.starts(with: XMLLiteral.system, at: offset) {
            offset += XMLLiteral.system.count
            try skipQuotedIdentifier(after: "SYSTEM")
        } else if hadWhitespace && source.starts(with: XMLLiteral.public, at: offset) {
            offset += XMLLiteral.public.count
            try skipQuotedIdentifier(after: "PUBLIC")
            try skipQuotedIdentifier(after: "the public identifier")
        }
        skipWhitespace()
        guard !atEnd else { throw problem("the DOCTYPE is never closed with '>'") }
        if current == ASCII.openingBracket {
            throw problem("entity declarations are not accepted, so a DOCTYPE must not have an internal subset '[...]'")
        }
        guard current == ASCII.greaterThan else {
            throw problem("expected '>' to end the DOCTYPE, found \(source.quotedCharacter(at: offset))")
        }
        offset += 1
    }

    private mutating func skipQuotedIdentifier(after context: String) throws(XMLProblem) {
        guard skipWhitespace() else { throw problem("expected a space after \(context) in the DOCTYPE") }
        guard !atEnd, current == ASCII.quote || current == ASCII.apostrophe else {
            throw problem("expected a quoted identifier after \(context) in the DOCTYPE")
        }
        let quote = current
        let opening = offset
        offset += 1
        while !atEnd && current != quote { offset += 1 }
        guard !atEnd else { throw problem("the quoted identifier in the DOCTYPE is never closed", at: opening) }
        offset += 1
    }

    /// The problem for a `<!` that is not a comment, CDATA inside an element, or the one
    /// DOCTYPE allowed in the prolog.
    func markupDeclarationProblem() -> XMLProblem {
        if source.starts(with: XMLLiteral.entityOpening, at: offset) {
            return problem("entity declarations are not accepted")
        }
        if source.starts(with: XMLLiteral.doctypeOpening, at: offset) {
            return problem("a DOCTYPE is only allowed once, before the root element")
        }
        if source.starts(with: XMLLiteral.cdataOpening, at: offset) {
            return problem("a CDATA section is only allowed inside an element")
        }
        return problem("markup declarations are not accepted; expected '<!--' or '<![CDATA[' after '<!'")
    }
}
