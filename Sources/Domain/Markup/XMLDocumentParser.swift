/// The reading state for one document. Open elements live on `open`, an explicit stack, so
/// nesting depth costs heap memory (bounded by the limits) rather than call-stack frames.
/// A class, not a struct: debug builds otherwise copy the whole state on many calls.
final class XMLDocumentParser {
    /// An element whose start tag has been read but not yet its end tag.
    struct OpenElement {
        let name: String
        let attributes: [XMLAttribute]
        let line: Int
        var text: [UInt8] = []
        var children: [ParsedXMLElement] = []

        func finished() -> ParsedXMLElement {
            ParsedXMLElement(
                name: name, attributes: attributes, children: children,
                text: String(decoding: text, as: UTF8.self), line: line)
        }
    }

    let source: XMLSource
    /// `source.bytes`, held directly so the hot loops do not copy `source` to reach it.
    let bytes: [UInt8]
    let limits: XMLReader.Limits
    var offset = 0
    var open: [OpenElement] = []
    var elementCount = 0

    init(source: XMLSource, limits: XMLReader.Limits) {
        self.source = source
        self.bytes = source.bytes
        self.limits = limits
    }

    var atEnd: Bool { offset >= bytes.count }
    var current: UInt8 { bytes[offset] }

    func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    func problem(_ reason: String, at index: Int? = nil) -> SyntaxProblem {
        source.problem(at: index ?? offset, reason)
    }

    /// Skips XML whitespace and says whether there was any.
    @discardableResult
    func skipWhitespace() -> Bool {
        let start = offset
        while offset < bytes.count && XMLSource.isWhitespace(bytes[offset]) { offset += 1 }
        return offset > start
    }

    // MARK: Document structure

    func readDocument() throws(SyntaxProblem) -> ParsedXMLElement {
        try readProlog()
        let root = try readRootElement()
        try readEpilogue()
        return root
    }

    /// Everything before the root element: declaration, comments, PIs, at most one DOCTYPE.
    private func readProlog() throws(SyntaxProblem) {
        if source.starts(with: XMLLiteral.xmlDeclaration, at: 0),
           let next = byte(at: XMLLiteral.xmlDeclaration.count), XMLSource.isWhitespace(next) || next == ASCII.question {
            try skipProcessingInstruction(allowingDeclaration: true)
        }
        var sawDoctype = false
        while true {
            skipWhitespace()
            guard !atEnd else { throw problem("the document has no root element") }
            if source.starts(with: XMLLiteral.commentOpening, at: offset) {
                try skipComment()
            } else if source.starts(with: XMLLiteral.processingInstructionOpening, at: offset) {
                try skipProcessingInstruction(allowingDeclaration: false)
            } else if source.starts(with: XMLLiteral.doctypeOpening, at: offset) && !sawDoctype {
                try skipDoctype()
                sawDoctype = true
            } else if current == ASCII.lessThan, let next = byte(at: offset + 1), XMLSource.isNameStart(next) {
                return
            } else if current == ASCII.lessThan && byte(at: offset + 1) == ASCII.exclamation {
                throw markupDeclarationProblem()
            } else {
                throw problem("text is not allowed before the root element")
            }
        }
    }

    /// After the root element only whitespace, comments and PIs may follow.
    private func readEpilogue() throws(SyntaxProblem) {
        while true {
            skipWhitespace()
            guard !atEnd else { return }
            if source.starts(with: XMLLiteral.commentOpening, at: offset) {
                try skipComment()
            } else if source.starts(with: XMLLiteral.processingInstructionOpening, at: offset) {
                try skipProcessingInstruction(allowingDeclaration: false)
            } else if current == ASCII.lessThan, let next = byte(at: offset + 1), XMLSource.isNameStart(next) {
                let start = offset
                offset += 1
                let name = try readName(after: "'<'")
                throw problem("a document has only one root element; found a second one, <\(name)>", at: start)
            } else if current == ASCII.lessThan && byte(at: offset + 1) == ASCII.exclamation {
                throw markupDeclarationProblem()
            } else if current == ASCII.lessThan && byte(at: offset + 1) == ASCII.slash {
                throw problem("this end tag has no matching start tag")
            } else {
                throw problem("text is not allowed after the root element")
            }
        }
    }

    // MARK: Elements

    /// Reads the root element and everything inside it with one loop over an explicit stack.
    private func readRootElement() throws(SyntaxProblem) -> ParsedXMLElement {
        while true {
            guard !atEnd else {
                let innermost = open[open.count - 1]
                throw problem("the document ends before <\(innermost.name)> (opened on line \(innermost.line)) is closed")
            }
            if current == ASCII.lessThan {
                if let finishedRoot = try readMarkupInContent() { return finishedRoot }
            } else if current == ASCII.ampersand {
                let scalar = try readReference()
                open[open.count - 1].text.append(contentsOf: String(scalar).utf8)
            } else {
                try readCharacterData()
            }
        }
    }

    /// Handles whatever starts with '<' inside (or as) an element; returns the root once its
    /// end tag (or self-closing start tag) has been read.
    private func readMarkupInContent() throws(SyntaxProblem) -> ParsedXMLElement? {
        let next = byte(at: offset + 1)
        if next == ASCII.slash {
            let element = try readEndTag()
            if open.isEmpty { return element }
            open[open.count - 1].children.append(element)
        } else if source.starts(with: XMLLiteral.commentOpening, at: offset) {
            try skipComment()
        } else if source.starts(with: XMLLiteral.cdataOpening, at: offset), !open.isEmpty {
            let data = try readCDATA()
            open[open.count - 1].text.append(contentsOf: data)
        } else if next == ASCII.exclamation {
            throw markupDeclarationProblem()
        } else if next == ASCII.question {
            try skipProcessingInstruction(allowingDeclaration: false)
        } else if let next, XMLSource.isNameStart(next) {
            let tagStart = offset
            elementCount += 1
            guard elementCount <= limits.maximumElementCount else {
                throw problem("the document has more than \(limits.maximumElementCount) elements", at: tagStart)
            }
            guard open.count < limits.maximumDepth else {
                throw problem("elements are nested more than \(limits.maximumDepth) levels deep", at: tagStart)
            }
            let tag = try readStartTag()
            let element = OpenElement(name: tag.name, attributes: tag.attributes, line: source.line(of: tagStart))
            if !tag.isSelfClosing {
                open.append(element)
            } else if open.isEmpty {
                return element.finished()
            } else {
                open[open.count - 1].children.append(element.finished())
            }
        } else {
            throw problem("'<' must start a tag; write &lt; for a literal '<'")
        }
        return nil
    }

    /// Reads `</name>`, checks it closes the innermost open element and returns that element.
    private func readEndTag() throws(SyntaxProblem) -> ParsedXMLElement {
        let tagStart = offset
        offset += 2
        let name = try readName(after: "'</'")
        skipWhitespace()
        guard !atEnd, current == ASCII.greaterThan else {
            throw problem("expected '>' to end the tag </\(name)>, found \(source.quotedCharacter(at: offset))")
        }
        offset += 1
        let innermost = open.removeLast()
        guard innermost.name == name else {
            throw problem("the tag <\(innermost.name)> is closed by </\(name)>", at: tagStart)
        }
        return innermost.finished()
    }

    /// Plain text up to the next '<' or '&'. Line breaks are normalised to LF as XML requires.
    private func readCharacterData() throws(SyntaxProblem) {
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == ASCII.lessThan || byte == ASCII.ampersand || byte == ASCII.carriageReturn
                || byte == ASCII.closingBracket { break }
            offset += 1
        }
        let top = open.count - 1
        open[top].text.append(contentsOf: bytes[start..<offset])
        guard !atEnd else { return }
        if current == ASCII.carriageReturn {
            open[top].text.append(ASCII.lineFeed)
            offset += byte(at: offset + 1) == ASCII.lineFeed ? 2 : 1
        } else if current == ASCII.closingBracket {
            // "]]>" ends CDATA; XML forbids it in text so a stray one is not silently misread.
            guard !source.starts(with: XMLLiteral.cdataClosing, at: offset) else {
                throw problem("']]>' is not allowed in text; write ]]&gt;")
            }
            open[top].text.append(ASCII.closingBracket)
            offset += 1
        }
    }
}
