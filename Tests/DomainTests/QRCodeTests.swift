import Domain
import Foundation
import Testing

/// The encoder is checked against segno, a Python encoder written independently of this one:
/// QRFixtures holds segno's symbols for the same bytes, version and level (how they were made and
/// which mask they use: QRFixtures/README.md). A symbol that matches module for module was built
/// from the same bit stream, error correction, interleaving, placement, mask and format and
/// version information; a reader decodes it as it decodes segno's.
@Suite struct QRCodeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("QRFixtures")

    /// One of segno's symbols with what it encodes.
    struct Fixture {
        var text = ""
        var correction = QRCode.ErrorCorrection.medium
        var version = 0
        var mask = 0
        var rows: [String] = []
    }

    static func fixture(_ name: String) throws -> Fixture {
        let content = try String(contentsOf: fixtures.appendingPathComponent("\(name).txt"), encoding: .utf8)
        var fixture = Fixture()
        for line in content.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else {
                fixture.rows.append(String(line))
                continue
            }
            let value = String(line[line.index(after: equals)...])
            switch line[..<equals] {
            case "text": fixture.text = value
            case "level": fixture.correction = try #require(correction(value))
            case "version": fixture.version = try #require(Int(value))
            case "mask": fixture.mask = try #require(Int(value))
            default: break
            }
        }
        return fixture
    }

    static func correction(_ letter: some StringProtocol) -> QRCode.ErrorCorrection? {
        ["L": .low, "M": .medium, "Q": .quartile, "H": .high][String(letter)]
    }

    /// The modules as the fixtures write them: a row a line, 1 for dark.
    static func rows(_ code: QRCode) -> [String] {
        (0..<code.size).map { row in String((0..<code.size).map { code[row, $0] ? "1" : "0" }) }
    }

    /// FNV-1a (64-bit) of the rows, each followed by a line feed, as make_fixtures.py computes it.
    static func fingerprint(_ rows: [String]) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in rows.map({ $0 + "\n" }).joined().utf8 {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `count` printable ASCII characters, different for each version and level, as
    /// make_fixtures.py's version_text builds them.
    static func versionText(version: Int, level: String, count: Int) -> String {
        let levelIndex = ["L", "M", "Q", "H"].firstIndex(of: level) ?? 0
        return String((0..<count).map { Character(Unicode.Scalar(UInt8(0x21 + ($0 * 31 + version * 7 + levelIndex * 3) % 94))) })
    }

    @Test(arguments: ["short-v1-L", "short-url-v2-M", "enroll-L", "enroll-M", "enroll-Q", "enroll-H", "long-text-M"])
    func symbolMatchesSegnosModuleForModule(_ name: String) throws {
        let fixture = try Self.fixture(name)
        let code = try QRCode(fixture.text, correction: fixture.correction)
        #expect(code.version == fixture.version)
        #expect(code.correction == fixture.correction)
        #expect(code.mask == fixture.mask)
        #expect(code.size == 17 + 4 * fixture.version)
        let rows = Self.rows(code)
        #expect(rows.count == fixture.rows.count)
        let differing = zip(rows, fixture.rows).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "\(name): rows \(differing) differ from segno's")
    }

    @Test func fixturesCoverWhatTheyAreFor() throws {
        #expect(try Self.fixture("short-v1-L").version == 1)
        #expect(try Self.fixture("short-url-v2-M").version == 2)
        let enroll = try Self.fixture("enroll-M")
        #expect(enroll.text.hasPrefix("https://") && enroll.text.utf8.count == 78)
        #expect(try ["enroll-L", "enroll-M", "enroll-Q", "enroll-H"].map { try Self.fixture($0).correction } == [.low, .medium, .quartile, .high])
        #expect(try ["enroll-L", "enroll-M", "enroll-Q", "enroll-H"].map { try Self.fixture($0).text }.allSatisfy { $0 == enroll.text })
        let long = try Self.fixture("long-text-M")
        #expect(long.version > 10)
        #expect(long.text.utf8.count > long.text.count, "the long text has characters of more than one UTF-8 byte")
    }

    /// Every version at every level: a text of exactly the most bytes segno fits in that version
    /// must take that version and give segno's symbol (compared by fingerprint), and one byte more
    /// must take the next version, or be refused after version 40.
    @Test(arguments: 1...40)
    func everyVersionAndLevelMatchesSegno(version: Int) throws {
        let content = try String(contentsOf: Self.fixtures.appendingPathComponent("versions.txt"), encoding: .utf8)
        let entries = content.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
            .filter { $0.first == String(version) }
        #expect(entries.count == 4)
        for entry in entries {
            let (level, capacity, mask, fingerprint) = (entry[1], try #require(Int(entry[2])), try #require(Int(entry[3])), entry[5])
            let correction = try #require(Self.correction(level))
            let text = Self.versionText(version: version, level: level, count: capacity)
            let code = try QRCode(text, correction: correction)
            #expect(code.version == version, "\(version)-\(level)")
            #expect(code.mask == mask, "\(version)-\(level)")
            #expect(Self.fingerprint(Self.rows(code)) == fingerprint, "\(version)-\(level): the symbol differs from segno's")
            if version < 40 {
                #expect(try QRCode(text + "a", correction: correction).version == version + 1, "\(version)-\(level)")
            } else {
                #expect(throws: QRCode.Problem.self, "\(level)") {
                    let code = try QRCode(text + "a", correction: correction)
                    _ = code
                }
            }
        }
    }

    @Test func textLongerThanVersion40HoldsIsRefusedCountingUTF8Bytes() throws {
        // "é" is two bytes in UTF-8; version 40 at level H holds 1273.
        #expect(try QRCode(String(repeating: "é", count: 636), correction: .high).version == 40)
        let problem = #expect(throws: QRCode.Problem.self) {
            let code = try QRCode(String(repeating: "é", count: 637), correction: .high)
            _ = code
        }
        #expect(problem?.byteCount == 1274)
        #expect(problem?.capacity == 1273)
        #expect(problem?.message == "This text is 1274 bytes long; a QR code holds at most 1273 bytes at this level of error correction.")
    }

    @Test func emptyTextIsTheSmallestCode() throws {
        let code = try QRCode("")
        #expect(code.version == 1 && code.size == 21 && code.correction == .medium)
    }

    @Test func svgIsWellFormedEscapedAndDrawsEveryModuleInsideTheQuietZone() throws {
        let code = try QRCode("https://mdm.example.com/mdm/enroll/AbCdEf")
        let title = "Enroll <Ann & Bob's> \"iPhone\"\u{1}"
        let svg = code.svg(title: title)
        #expect(!svg.contains("<Ann") && svg.contains("&lt;Ann &amp; Bob"))

        let root = try XMLReader.parse(svg)
        #expect(root.name == "svg")
        #expect(root.attribute("xmlns") == "http://www.w3.org/2000/svg")
        #expect(root.attribute("role") == "img")
        let side = code.size + 8
        #expect(root.attribute("viewBox") == "0 0 \(side) \(side)")
        #expect(root.children.first?.name == "title", "the title comes first, where assistive technology looks")
        #expect(root.child(named: "title")?.text == "Enroll <Ann & Bob's> \"iPhone\"", "escaped text reads back; the control character is left out")
        #expect(root.children(named: "path").count == 1)

        // Paint the path's rectangles and compare with the code moved 4 modules in.
        let path = try #require(root.child(named: "path")?.attribute("d"))
        var painted = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        let scanner = Scanner(string: path)
        while !scanner.isAtEnd {
            #expect(scanner.scanString("M") != nil)
            let x = try #require(scanner.scanInt()), y = try #require(scanner.scanInt())
            #expect(scanner.scanString("h") != nil)
            let width = try #require(scanner.scanInt())
            #expect(scanner.scanString("v1h-") != nil && scanner.scanInt() == width && scanner.scanString("z") != nil)
            for column in x..<x + width { painted[y][column].toggle() }
        }
        for row in 0..<side {
            for column in 0..<side {
                let inCode = (4..<4 + code.size).contains(row) && (4..<4 + code.size).contains(column)
                let expected = inCode && code[row - 4, column - 4]
                #expect(painted[row][column] == expected, "module (\(row), \(column)) of the image")
            }
        }
    }

    @Test func svgQuietZoneCanBeChosen() throws {
        let code = try QRCode("x")
        let root = try XMLReader.parse(code.svg(title: "x", quietZone: 2))
        #expect(root.attribute("viewBox") == "0 0 25 25")
        #expect(root.child(named: "path")?.attribute("d")?.hasPrefix("M2 2h7") == true, "the top-left finder starts 2 modules in")
    }
}
