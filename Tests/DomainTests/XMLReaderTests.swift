import Foundation
@testable import Domain
import Testing

@Suite struct XMLReaderTests {
    @Test func readsElementsAttributesAndText() throws {
        let root = try XMLReader.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <settings version='2'>
              <item key="a" value="1"/>
              <item key="b">two</item>
            </settings>
            """)
        #expect(root.name == "settings")
        #expect(root.attribute("version") == "2")
        #expect(root.line == 2)
        #expect(root.children.map(\.name) == ["item", "item"])
        #expect(root.children(named: "item").count == 2)
        #expect(root.child(named: "item")?.attribute("key") == "a")
        #expect(root.child(named: "item")?.line == 3)
        #expect(root.children[1].text == "two")
        #expect(root.children[1].line == 4)
        #expect(root.child(named: "missing") == nil)
        #expect(root.attribute("missing") == nil)
    }

    @Test func keepsAttributesInDocumentOrder() throws {
        let root = try XMLReader.parse(#"<a z="1" b="2" m="3"/>"#)
        #expect(root.attributes == [
            XMLAttribute(name: "z", value: "1"), XMLAttribute(name: "b", value: "2"), XMLAttribute(name: "m", value: "3"),
        ])
    }

    @Test func textExcludesChildrenAndTrimmedTextDropsIndentation() throws {
        let root = try XMLReader.parse("<a>\n  one <b>inner</b> two\n</a>")
        #expect(root.text == "\n  one  two\n")
        #expect(root.trimmedText == "one  two")
        #expect(root.children[0].text == "inner")
    }

    @Test func replacesPredefinedEntitiesAndCharacterReferences() throws {
        let root = try XMLReader.parse("<a>&lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#x1F600;</a>")
        #expect(root.text == "<>&\"' AB😀")
    }

    @Test func replacesReferencesInAttributesAndNormalisesWhitespace() throws {
        let root = try XMLReader.parse("<a title=\"Tom &amp; Jerry &#x263A;\" note='say &quot;hi&quot;' lines=\"one\ntwo\tthree\"/>")
        #expect(root.attribute("title") == "Tom & Jerry ☺")
        #expect(root.attribute("note") == "say \"hi\"")
        #expect(root.attribute("lines") == "one two three")
    }

    @Test func cdataIsTextAndKeepsMarkupLiterally() throws {
        let root = try XMLReader.parse("<a>before <![CDATA[<b>&amp; ]] ]></b>]]> after</a>")
        #expect(root.text == "before <b>&amp; ]] ]></b> after")
        #expect(root.children.isEmpty)
    }

    @Test func skipsCommentsAndProcessingInstructionsEverywhere() throws {
        let root = try XMLReader.parse("""
            <?xml version="1.0"?>
            <!-- before --><?app hint?>
            <a><!-- inside -->x<?pi data?>y<!----></a>
            <!-- after --><?tail?>
            """)
        #expect(root.name == "a")
        #expect(root.text == "xy")
    }

    @Test func acceptsDoctypeWithoutInternalSubset() throws {
        let public_ = try XMLReader.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict/></plist>
            """)
        #expect(public_.name == "plist")
        let system = try XMLReader.parse("<!DOCTYPE config SYSTEM 'config.dtd'><config/>")
        #expect(system.name == "config")
        let bare = try XMLReader.parse("<!DOCTYPE config ><config/>")
        #expect(bare.name == "config")
    }

    @Test func normalisesLineBreaksInText() throws {
        let root = try XMLReader.parse("<a>one\r\ntwo\rthree</a>")
        #expect(root.text == "one\ntwo\nthree")
    }

    @Test func acceptsByteOrderMarkAndNonASCIINames() throws {
        let root = try XMLReader.parse("\u{FEFF}<größe einheit=\"cm\">12</größe>")
        #expect(root.name == "größe")
        #expect(root.attribute("einheit") == "cm")
    }

    @Test func countsLinesAfterCarriageReturns() throws {
        let root = try XMLReader.parse("<a>\r\n<b/>\r<c/>\n<d/></a>")
        #expect(root.children.map(\.line) == [2, 3, 4])
    }

    @Test func acceptsWhitespaceInsideTags() throws {
        let root = try XMLReader.parse("<a\n  x = \"1\"\n  y\t=\t'2' ></a >")
        #expect(root.attribute("x") == "1")
        #expect(root.attribute("y") == "2")
    }

    @Test func textMayContainGreaterThanAndSingleBrackets() throws {
        #expect(try XMLReader.parse("<a>1 > 0 ]] ]</a>").text == "1 > 0 ]] ]")
    }

    @Test func readsAMegabyteQuickly() throws {
        let item = "<item key=\"name\" value=\"a &amp; b\">some text here</item>\n"
        let document = "<list>\n" + String(repeating: item, count: 1_048_576 / item.utf8.count) + "</list>"
        let start = ContinuousClock.now
        let root = try XMLReader.parse(document)
        let elapsed = ContinuousClock.now - start
        #expect(root.children.count == 1_048_576 / item.utf8.count)
        #expect(root.children.last?.attribute("value") == "a & b")
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }
}
