@testable import Domain
import Testing

/// Malformed documents: each must fail with the right place and a reason a person can use.
@Suite struct XMLReaderProblemTests {
    private func problem(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) -> SyntaxProblem? {
        do {
            _ = try XMLReader.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func mismatchedTagReportsLineAndColumnOfTheEndTag() {
        let found = problem("<a>\n  <b>\n    x</a>\n</b>")
        #expect(found == SyntaxProblem(line: 3, column: 6, reason: "the tag <b> is closed by </a>"))
        #expect(found?.description == "line 3, column 6: the tag <b> is closed by </a>")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(problem("<a>\nä€😀</b>")?.column == 4)
    }

    @Test func unclosedElementNamesItAndItsLine() {
        let found = problem("<a>\n<b>text")
        #expect(found?.reason == "the document ends before <b> (opened on line 2) is closed")
        #expect(found?.line == 2)
        #expect(found?.column == 8)
    }

    @Test func emptyDocumentHasNoRoot() {
        #expect(problem("")?.reason == "the document has no root element")
        #expect(problem("  <!-- only a comment -->  ")?.reason == "the document has no root element")
    }

    @Test func refusesTextOutsideTheRoot() {
        #expect(problem("hello <a/>")?.reason == "text is not allowed before the root element")
        #expect(problem("<a/>\ntrailing") == SyntaxProblem(line: 2, column: 1, reason: "text is not allowed after the root element"))
    }

    @Test func refusesAnEndTagAfterTheRoot() {
        #expect(problem("<a/></a>") == SyntaxProblem(line: 1, column: 5, reason: "this end tag has no matching start tag"))
    }

    @Test func refusesASecondRoot() {
        #expect(problem("<a/>\n<b/>") == SyntaxProblem(
            line: 2, column: 1, reason: "a document has only one root element; found a second one, <b>"))
    }

    @Test func refusesDuplicateAttributes() {
        #expect(problem("<a x=\"1\" y=\"2\" x=\"3\"/>") == SyntaxProblem(
            line: 1, column: 16, reason: "the attribute x appears twice in the tag <a>"))
    }

    @Test(arguments: [3, 8, 9, 40])
    func refusesDuplicatesAmongManyAttributes(_ count: Int) {
        let attributes = (0..<count).map { " a\($0)=\"\($0)\"" }.joined()
        #expect(problem("<e\(attributes) a0='again'/>")?.reason == "the attribute a0 appears twice in the tag <e>")
        #expect(problem("<e\(attributes) a\(count - 1)='again'/>")?.reason == "the attribute a\(count - 1) appears twice in the tag <e>")
    }

    @Test(arguments: [
        ("<a x=1/>", "the value of the attribute x must be in quotes"),
        ("<a x/>", "expected '=' after the attribute name x"),
        ("<a x=\"1\"y=\"2\"/>", "expected a space before the attribute in the tag <a>"),
        ("<a x=\"<\"/>", "'<' is not allowed in an attribute value; write &lt;"),
        ("<a x=\"1/>", "the value of the attribute x is never closed"),
        ("<a", "the tag <a> is never closed with '>'"),
        ("<a / >", "expected '>' after '/' in the tag <a>"),
        ("<a $>", "unexpected '$' in the tag <a>"),
    ])
    func refusesMalformedStartTags(_ text: String, _ reason: String) {
        #expect(problem(text)?.reason == reason)
    }

    @Test(arguments: [
        ("<a>1 < 2</a>", "'<' must start a tag; write &lt; for a literal '<'"),
        ("<a>fish & chips</a>", "a literal '&' must be written as &amp;"),
        ("<a>&amp</a>", "the reference &amp is not closed with ';'"),
        ("<a>&#;</a>", "expected digits in the character reference &#"),
        ("<a>&#x;</a>", "expected hexadecimal digits in the character reference &#x"),
        ("<a>&#65</a>", "the character reference &#65 is not closed with ';'"),
        ("<a>&#0;</a>", "&#0; refers to a character XML does not allow"),
        ("<a>&#xD800;</a>", "&#xD800; refers to a character XML does not allow"),
        ("<a>&#99999999999999999999;</a>", "&#99999999999999999999; refers to a character XML does not allow"),
        ("<a>]]></a>", "']]>' is not allowed in text; write ]]&gt;"),
        ("<a></ a>", "expected a name after '</', found ' '"),
        ("<a></a x>", "expected '>' to end the tag </a>, found 'x'"),
    ])
    func refusesMalformedContent(_ text: String, _ reason: String) {
        #expect(problem(text)?.reason == reason)
    }

    @Test func refusesCommentsContainingDoubleHyphen() {
        #expect(problem("<a><!-- a -- b --></a>") == SyntaxProblem(line: 1, column: 11, reason: "a comment must not contain '--'"))
        #expect(problem("<a><!-- never closed </a>")?.reason == "the comment is never closed with '-->'")
    }

    @Test func refusesUnclosedCDATAAndProcessingInstructions() {
        #expect(problem("<a><![CDATA[ text </a>")?.reason == "the CDATA section is never closed with ']]>'")
        #expect(problem("<a><?pi </a>")?.reason == "<?pi is never closed with '?>'")
        #expect(problem("<![CDATA[x]]><a/>")?.reason == "a CDATA section is only allowed inside an element")
    }

    @Test func xmlDeclarationOnlyAtTheStart() {
        #expect(problem(" <?xml version=\"1.0\"?><a/>")?.reason
            == "the XML declaration <?xml ...?> is only allowed at the very start of the document")
        #expect(problem("<a><?xml version=\"1.0\"?></a>")?.line == 1)
    }

    @Test func refusesControlCharacters() {
        #expect(problem("<a>bell\u{07}</a>") == SyntaxProblem(line: 1, column: 8, reason: "the character U+0007 is not allowed in XML"))
        #expect(problem("<a>\u{FFFE}</a>")?.reason == "the character U+FFFE is not allowed in XML")
        #expect(problem("<a>&#7;</a>")?.reason == "&#7; refers to a character XML does not allow")
    }

    @Test func refusesMalformedDoctypes() {
        #expect(problem("<!DOCTYPE a PUBLIC \"x\"><a/>")?.reason == "expected a space after the public identifier in the DOCTYPE")
        #expect(problem("<!DOCTYPE a SYSTEM><a/>")?.reason == "expected a space after SYSTEM in the DOCTYPE")
        #expect(problem("<!DOCTYPE a SYSTEM \"x><a/>")?.reason == "the quoted identifier in the DOCTYPE is never closed")
        #expect(problem("<!DOCTYPE a junk><a/>")?.reason == "expected '>' to end the DOCTYPE, found 'j'")
        #expect(problem("<!DOCTYPE a><!DOCTYPE a><a/>")?.reason == "a DOCTYPE is only allowed once, before the root element")
        #expect(problem("<a><!DOCTYPE a></a>")?.reason == "a DOCTYPE is only allowed once, before the root element")
    }

    @Test func refusesOtherMarkupDeclarations() {
        #expect(problem("<!ELEMENT a ANY><a/>")?.reason
            == "markup declarations are not accepted; expected '<!--' or '<![CDATA[' after '<!'")
    }
}
