import Domain
import Foundation
import Testing

/// Text and numbers as people type them: what the console refuses and how exports stay
/// well-formed whatever was stored.
@Suite struct TextInputTests {
    @Test(arguments: ["\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{FFFE}", "a\u{B}b", "a\u{C}b"])
    func controlCharactersAreRefusedInEveryKindOfText(_ text: String) {
        #expect(PlainText.problem(text) != nil)
        #expect(PlainText.problem(text, lines: .multiple) != nil)
    }

    @Test func tabsAndLineBreaksAreAllowedOnlyInMultiLineText() {
        for text in ["a\tb", "a\nb", "a\r\nb"] {
            #expect(PlainText.problem(text) != nil)
            #expect(PlainText.problem(text, lines: .multiple) == nil)
        }
        #expect(PlainText.problem("Lobby kiosk — Zürich 👋") == nil)
    }

    @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "1e309", "-1e309", "0x1p3", "1.2.3", "", " ", "1e", ".", "+", "١٢"])
    func numbersThatAreNotFiniteDecimalsAreRefused(_ text: String) {
        #expect(DecimalNumber.parse(text) == nil)
    }

    @Test(arguments: [("12", 12.0), ("-3.5", -3.5), (".5", 0.5), ("5.", 5.0), ("2e3", 2000.0), (" 1.25 ", 1.25), ("+7", 7.0)])
    func ordinaryDecimalsAreRead(_ case: (text: String, value: Double)) {
        #expect(DecimalNumber.parse(`case`.text) == `case`.value)
    }

    @Test func aNonFiniteRealOrBoundIsAFieldProblem() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let value = ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [ConfigKey(name: "ratio", type: .real, value: .real(bad))])
            #expect(value.validate()["keys.0.value"] != nil)
            let bound = ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [ConfigKey(name: "ratio", type: .real, minimum: bad)])
            #expect(bound.validate()["keys.0.minimum"] != nil)
        }
        for text in ["nan", "inf", "1e309"] { #expect((try? ConfigValue.parse(text, as: .real).get()) == nil) }
    }

    @Test func theExportStaysWellFormedWhateverWasStored() throws {
        let nasty = "Lobby\u{0}\u{1}\u{1B}\u{B}\u{FFFE}\r\n<&>\t end"
        let plist = PropertyList.dictionary([(nasty, .string(nasty)), ("list", .array([.string(nasty)]))])
        let parsed = try PropertyListSerialization.propertyList(from: Data(plist.xmlDocument().utf8), format: nil)
        let dictionary = try #require(parsed as? [String: Any])
        #expect(dictionary["Lobby\r\n<&>\t end"] as? String == "Lobby\r\n<&>\t end")
    }
}

/// The byte-at-a-time answers that spare each uploaded log line a reading by characters agree
/// with the rules as written, on texts made to land on every edge.
@Suite struct TextRuleShortcutTests {
    private static let pieces = ["a", "Z", "7", "-", ".", "_", " ", "\t", "\n", "\r", "\r\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
                                 "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{EFFF}", "\u{F000}", "👋", "ß", "١"]

    private static func texts() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4_000).map { _ in (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
    }

    @Test func plainTextAgreesWithItsScalarRule() {
        for text in Self.texts() {
            for lines in [PlainText.Lines.single, .multiple] {
                let refused = text.unicodeScalars.contains { !PlainText.isAllowed($0, lines: lines) }
                #expect((PlainText.problem(text, lines: lines) != nil) == refused, "\(text.debugDescription)")
            }
        }
    }

    @Test func bundleIDsAgreeWithTheirCharacterRule() {
        for text in Self.texts() + ["com.example.app", "a.b", "a..b", ".a.b", "a.b.", "ab", String(repeating: "a.", count: 80) + "a"] {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let valid = text.count <= BundleID.maximumLength && parts.count >= 2
                && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
            #expect((BundleID.problem(text) == nil) == valid, "\(text.debugDescription)")
        }
    }
}

@Suite struct SearchFoldingTests {
    @Test func caseIsFoldedFullyComposedAndTheDotOfAnIDropped() {
        #expect(SearchFolding.folded("ΣΊΣΥΦΟΣ") == SearchFolding.folded("σίσυφος"))
        #expect(SearchFolding.folded("Straße") == "strasse" && SearchFolding.folded("ﬁle") == "file")
        #expect(SearchFolding.folded("İSTANBUL") == "istanbul" && SearchFolding.folded("İstanbul") == "istanbul")
        #expect(SearchFolding.folded("Cafe\u{301}") == "café" && SearchFolding.folded("CAFÉ") == "café")
        #expect(SearchFolding.folded("DMPXK2ABCD") == "dmpxk2abcd")
        #expect(SearchFolding.folded("\u{307}") == "\u{307}", "a dot above on its own stays")
    }
}
