@testable import Domain
import Testing

/// Hostile documents: every attack must end in an `SyntaxProblem`, never in a fetch, an
/// expansion, a crash or unbounded memory.
@Suite struct XMLReaderSecurityTests {
    private func problem(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) -> SyntaxProblem? {
        do {
            _ = try XMLReader.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesExternalEntities() {
        let found = problem("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>")
        #expect(found?.line == 1)
        #expect(found?.column == 13)
        #expect(found?.reason.contains("entity declarations are not accepted") == true)
    }

    @Test func refusesBillionLaughs() {
        var document = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        document += " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for level in 2...9 {
            let previous = "&lol\(level - 1);"
            document += " <!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        document += "]>\n<lolz>&lol9;</lolz>"
        let found = problem(document)
        #expect(found?.line == 2)
        #expect(found?.reason.contains("entity declarations are not accepted") == true)
    }

    @Test func refusesEntityDeclarationsOutsideADoctype() {
        #expect(problem("<!ENTITY e \"x\"><a/>")?.reason == "entity declarations are not accepted")
        #expect(problem("<a><!ENTITY e \"x\"></a>")?.reason == "entity declarations are not accepted")
    }

    @Test func refusesUndeclaredEntities() {
        let found = problem("<a>\n  hello &foo; world\n</a>")
        #expect(found?.line == 2)
        #expect(found?.column == 9)
        #expect(found?.reason.hasPrefix("unknown entity &foo;") == true)
        #expect(problem("<a title=\"&nbsp;\"/>")?.reason.hasPrefix("unknown entity &nbsp;") == true)
    }

    @Test func refusesParameterEntityReferences() {
        #expect(problem("<!DOCTYPE x [%remote;]><x/>")?.reason.contains("entity declarations are not accepted") == true)
    }

    @Test func deepNestingFailsWithoutExhaustingTheStack() {
        let depth = 100_000
        let document = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let found = problem(document)
        #expect(found == SyntaxProblem(line: 1, column: 193, reason: "elements are nested more than 64 levels deep"))
    }

    @Test func depthLimitIsExactAndConfigurable() throws {
        let nested = { (depth: Int) in String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) }
        #expect(throws: Never.self) { try XMLReader.parse(nested(64)) }
        #expect(problem(nested(65)) != nil)
        #expect(throws: Never.self) { try XMLReader.parse(nested(200), limits: XMLReader.Limits(maximumDepth: 200)) }
        #expect(problem("<a><b/></a>", limits: XMLReader.Limits(maximumDepth: 1))?.reason
            == "elements are nested more than 1 levels deep")
    }

    @Test func depthLimitHasACeiling() {
        #expect(XMLReader.Limits(maximumDepth: 1_000_000).maximumDepth == XMLReader.Limits.depthCeiling)
        #expect(XMLReader.Limits(maximumDepth: 0).maximumDepth == 1)
    }

    @Test func elementCountIsLimited() throws {
        let limits = XMLReader.Limits(maximumElementCount: 10)
        #expect(throws: Never.self) { try XMLReader.parse("<r>" + String(repeating: "<i/>", count: 9) + "</r>", limits: limits) }
        let found = problem("<r>" + String(repeating: "<i/>", count: 10) + "</r>", limits: limits)
        #expect(found == SyntaxProblem(line: 1, column: 40, reason: "the document has more than 10 elements"))
        let flood = "<r>" + String(repeating: "<i/>", count: 200_000) + "</r>"
        #expect(problem(flood)?.reason == "the document has more than 100000 elements")
    }

    @Test func manyAttributesStayCheap() throws {
        let attributes = (0..<20_000).map { " a\($0)=\"\($0)\"" }.joined()
        let root = try XMLReader.parse("<a\(attributes)/>")
        #expect(root.attributes.count == 20_000)
    }
}
