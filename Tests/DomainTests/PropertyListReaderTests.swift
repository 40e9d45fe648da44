import Foundation
@testable import Domain
import Testing

@Suite struct PropertyListReaderTests {
    private func problem(_ text: String) -> PropertyListProblem? {
        do {
            _ = try PropertyListReader.read(text)
            return nil
        } catch {
            return error
        }
    }

    private func plist(_ body: String) -> String {
        "<plist version=\"1.0\">\n\(body)\n</plist>"
    }

    @Test func readsARealAppleProfileWithItsDoctype() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>PayloadContent</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>PayloadType</key>
            \t\t\t<string>com.apple.wifi.managed</string>
            \t\t\t<key>SSID_STR</key>
            \t\t\t<string>Office &amp; Lab</string>
            \t\t\t<key>AutoJoin</key>
            \t\t\t<true/>
            \t\t\t<key>HIDDEN_NETWORK</key>
            \t\t\t<false/>
            \t\t</dict>
            \t</array>
            \t<key>PayloadVersion</key>
            \t<integer>1</integer>
            \t<key>Ratio</key>
            \t<real>0.75</real>
            \t<key>Expires</key>
            \t<date>2026-01-31T09:00:00Z</date>
            \t<key>Certificate</key>
            \t<data>
            \tSGVsbG8s
            \tIHdvcmxk
            \t</data>
            \t<key>Empty</key>
            \t<array/>
            </dict>
            </plist>
            """
        let expected = PropertyList.dictionary([
            ("PayloadContent", .array([
                .dictionary([
                    ("PayloadType", .string("com.apple.wifi.managed")),
                    ("SSID_STR", .string("Office & Lab")),
                    ("AutoJoin", .boolean(true)),
                    ("HIDDEN_NETWORK", .boolean(false)),
                ]),
            ])),
            ("PayloadVersion", .integer(1)),
            ("Ratio", .real(0.75)),
            ("Expires", .date(Date(timeIntervalSince1970: 1_769_850_000))),
            ("Certificate", .data(Array("Hello, world".utf8))),
            ("Empty", .array([])),
        ])
        #expect(try PropertyListReader.read(text) == expected)
        #expect(try PropertyListReader.read(Data(text.utf8)) == expected)
    }

    @Test func keepsDictionaryOrderAndStringWhitespace() throws {
        let value = try PropertyListReader.read(plist("<dict><key>z</key><string> padded </string><key>a</key><dict/></dict>"))
        #expect(value == .dictionary([("z", .string(" padded ")), ("a", .dictionary([]))]))
    }

    @Test func roundTripsTheProductsOwnExport() throws {
        let original = PropertyList.dictionary([
            ("Name", .string("<Tom> & \"Jerry\"")), ("Count", .integer(-42)), ("Big", .integer(Int.max)),
            ("Half", .real(0.5)), ("On", .boolean(true)), ("When", .date(Date(timeIntervalSince1970: 0))),
            ("Bytes", .data([0, 1, 2, 255])), ("List", .array([.string(""), .array([])])),
        ])
        #expect(try PropertyListReader.read(original.xmlDocument()) == original)
    }

    @Test(arguments: [
        ("<integer>+7</integer>", PropertyList.integer(7)),
        ("<integer> -9223372036854775808 </integer>", .integer(Int.min)),
        ("<real>-1.5e3</real>", .real(-1500)),
        ("<real>.5</real>", .real(0.5)),
        ("<real>3</real>", .real(3)),
        ("<real>-infinity</real>", .real(-.infinity)),
        ("<date>2024-02-29T23:59:59Z</date>", .date(Date(timeIntervalSince1970: 1_709_251_199))),
        ("<date>1969-12-31T00:00:00Z</date>", .date(Date(timeIntervalSince1970: -86_400))),
        ("<data></data>", .data([])),
        ("<string/>", .string("")),
    ])
    func readsScalars(_ body: String, _ expected: PropertyList) throws {
        #expect(try PropertyListReader.read(plist(body)) == expected)
    }

    @Test func readsNotANumber() throws {
        guard case .real(let number) = try PropertyListReader.read(plist("<real>nan</real>")) else {
            Issue.record("expected a real")
            return
        }
        #expect(number.isNaN)
    }

    @Test(arguments: [
        ("<integer>12a</integer>", "<integer> must hold a whole number, not \"12a\""),
        ("<integer></integer>", "<integer> must hold a whole number, not \"\""),
        ("<integer>0x10</integer>", "<integer> must hold a whole number, not \"0x10\""),
        ("<integer>9223372036854775808</integer>", "the integer 9223372036854775808 is out of range"),
        ("<real>1.2.3</real>", "<real> must hold a decimal number, not \"1.2.3\""),
        ("<real>0x1p3</real>", "<real> must hold a decimal number, not \"0x1p3\""),
        ("<real>1e999</real>", "the real number 1e999 is out of range"),
        ("<date>2026-01-31</date>", "<date> must look like 2026-01-31T09:00:00Z, not \"2026-01-31\""),
        ("<date>2026-01-31T09:00:00+01:00</date>", "<date> must look like 2026-01-31T09:00:00Z, not \"2026-01-31T09:00:00+01:00\""),
        ("<date>2025-02-29T09:00:00Z</date>", "<date> 2025-02-29T09:00:00Z is not a real date and time"),
        ("<date>2026-01-31T24:00:00Z</date>", "<date> 2026-01-31T24:00:00Z is not a real date and time"),
        ("<data>not base64!</data>", "<data> is not valid base64"),
        ("<true>yes</true>", "<true/> must be empty"),
        ("<string><b/></string>", "<string> cannot contain <b>"),
        ("<key>a</key>", "<key> is only allowed directly inside <dict>"),
        ("<object/>", "unknown property list element <object>"),
        ("<array>loose text<true/></array>", "text is not allowed directly inside <array>"),
    ])
    func refusesMalformedValues(_ body: String, _ reason: String) {
        #expect(problem(plist(body)) == PropertyListProblem(line: 2, reason: reason))
    }

    @Test func keyWithoutValueReportsTheKeysLine() {
        let text = plist("<dict>\n  <key>A</key>\n  <string>1</string>\n  <key>B</key>\n</dict>")
        #expect(problem(text) == PropertyListProblem(line: 5, reason: "the key \"B\" has no value"))
        let twoKeys = plist("<dict>\n  <key>A</key>\n  <key>B</key>\n  <true/>\n</dict>")
        #expect(problem(twoKeys) == PropertyListProblem(line: 3, reason: "the key \"A\" has no value"))
    }

    @Test func duplicateKeyReportsTheSecondOne() {
        let text = plist("<dict>\n  <key>A</key><true/>\n  <key>A</key><false/>\n</dict>")
        #expect(problem(text) == PropertyListProblem(line: 4, reason: "the key \"A\" appears twice in this dictionary"))
    }

    @Test func valueWithoutKeyReportsTheValuesLine() {
        let text = plist("<dict>\n  <key>A</key><true/>\n  <string>orphan</string>\n</dict>")
        #expect(problem(text) == PropertyListProblem(line: 4, reason: "<string> in a dictionary needs a <key> before it"))
    }

    @Test func rootMustBeAPlistWithOneValue() {
        #expect(problem("<dict/>") == PropertyListProblem(line: 1, reason: "expected <plist> as the root element, found <dict>"))
        #expect(problem("<plist version=\"1.0\"/>") == PropertyListProblem(line: 1, reason: "<plist> is empty; it must hold one value"))
        #expect(problem(plist("<true/>\n<false/>")) == PropertyListProblem(line: 3, reason: "<plist> must hold exactly one value"))
        #expect(problem(plist("<array><plist/></array>"))?.reason == "<plist> is only allowed as the root element")
    }

    @Test func xmlProblemsKeepTheirColumn() {
        let found = problem(plist("<dict>\n<key>A</key><string>x</dict>"))
        #expect(found == PropertyListProblem(line: 3, column: 22, reason: "the tag <string> is closed by </dict>"))
        #expect(found?.description == "line 3, column 22: the tag <string> is closed by </dict>")
        #expect(PropertyListProblem(line: 4, reason: "r").description == "line 4: r")
    }

    @Test func refusesEntityAttacksThroughTheXMLReader() {
        let xxe = "<!DOCTYPE plist [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><plist><string>&e;</string></plist>"
        #expect(problem(xxe)?.reason.contains("entity declarations are not accepted") == true)
        let deep = plist(String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000))
        #expect(problem(deep)?.reason == "elements are nested more than 64 levels deep")
    }

    @Test func recognisesBinaryPlists() {
        let binary = Data("bplist00".utf8) + Data([0xD1, 0x01, 0x02])
        #expect(PropertyListReader.isBinaryPlist(binary))
        #expect(!PropertyListReader.isBinaryPlist(Data("<?xml".utf8)))
        #expect(!PropertyListReader.isBinaryPlist(Data()))
        #expect(throws: PropertyListProblem(line: 1, reason: "binary property lists are not supported; convert it with plutil -convert xml1")) {
            try PropertyListReader.read(binary)
        }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: PropertyListProblem(line: 1, reason: "the file is not UTF-8 text")) {
            try PropertyListReader.read(Data([0x3C, 0xFF, 0xFE, 0x3E]))
        }
    }

    /// From 1583 on; before the Gregorian reform Foundation counts Julian days, we do not.
    @Test func calendarArithmeticMatchesFoundation() throws {
        let formatter = ISO8601DateFormatter()
        for text in ["1583-01-01T00:00:00Z", "1900-03-01T12:34:56Z", "2000-02-29T00:00:00Z", "2100-12-31T23:59:59Z", "9999-12-31T23:59:59Z"] {
            let expected = try #require(formatter.date(from: text))
            #expect(try PropertyListScalars.date(text, line: 1) == expected, "\(text)")
        }
    }
}
