/// The DOCTYPE and the other `<!` declarations, which are where entities would be declared.
extension XMLDocumentParser {
    /// Skips `<!DOCTYPE name>`, `<!DOCTYPE name SYSTEM "uri">` or
    /// `<!DOCTYPE name PUBLIC "id" "uri">`. The identifiers are never fetched. An internal
    /// subset is where entities are declared, so it is refused outright.
    func skipDoctype() throws(SyntaxProblem) {
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

    private func skipQuotedIdentifier(after context: String) throws(SyntaxProblem) {
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
    func markupDeclarationProblem() -> SyntaxProblem {
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
