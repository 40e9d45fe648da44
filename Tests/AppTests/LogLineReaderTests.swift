@testable import App
import Foundation
import Testing

/// `LogLineReader` reads upload lines without `JSONDecoder`; whatever it accepts must be
/// exactly what the decoder makes of the same bytes, and whatever the decoder refuses it must
/// decline, so that uploads keep the decoder's answers and messages.
@Suite struct LogLineReaderTests {
    static func read(_ text: String) -> LogUpload.Line? {
        read(Array(text.utf8))
    }

    static func read(_ bytes: [UInt8]) -> LogUpload.Line? {
        bytes.withUnsafeBufferPointer { LogLineReader.line($0) }
    }

    static func decoded(_ bytes: [UInt8]) -> LogUpload.Line? {
        try? JSONDecoder().decode(LogUpload.Line.self, from: Data(bytes))
    }

    static let base = #""app":"com.example.app","level":"error","type":"application","timestamp":"2026-11-23T09:30:00Z""#

    /// Lines as devices write them, each of which the reader must read itself.
    static let sent: [String] = [
        #"{\#(base),"message":"Printer offline"}"#,
        #"{"app":"com.example.app","appVersion":"2.4.1","level":"debug","type":"crash","timestamp":"2026-11-23T09:30:00.125+01:00","message":"E_TIMEOUT after 30 s"}"#,
        #"{\#(base),"message":"Sync done","fields":{"durationMs":"725","requestId":"2c829abe1f4532e1"}}"#,
        #"{\#(base),"message":"m","fields":{"count":42,"ratio":-1.5,"big":1e3,"tiny":2.5E-3,"zero":0,"negZero":-0,"ok":true,"failed":false,"long":12345678901234567890}}"#,
        #"{\#(base),"message":"quote \" backslash \\ slash \/ controls \b\f\n\r\t end"}"#,
        #"{\#(base),"message":"caf\u00e9 \u65e5\u672c \ud83d\ude00 \u0041\u00DF"}"#,
        #"{\#(base),"message":"café 日本 😀 ✓"}"#,
        #"  { "app" : "com.example.app" , "level":"warning",\#("\t")"type" :"application","timestamp":"2026-11-23T09:30:00Z" ,"message":"spaced"}  "#,
        #"{"extra":{"nested":[1,2.5,{"deep":[true,false,null,"x\"y"]}],"e":{}},"also":[],\#(base),"message":"unknown keys","n":null,"s":"\u00e9"}"#,
        #"{\#(base),"message":"empty fields","fields":{}}"#,
        #"{"message":"keys in any order","timestamp":"2026-11-23T09:30:00Z","type":"application","level":"error","app":"com.example.app"}"#,
        #"{\#(base),"message":"\r"}"#,
        #"{\#(base),"appVersion":"","message":"an empty string","fields":{"":""}}"#,
    ]

    @Test func linesAsDevicesSendThemAreReadAsTheDecoderReadsThem() throws {
        for text in Self.sent {
            let bytes = Array(text.utf8)
            let read = try #require(Self.read(bytes), "the reader declined \(text)")
            #expect(read == Self.decoded(bytes), "\(text)")
        }
        let line = try #require(Self.read(Self.sent[3]))
        #expect(line.fields?["count"]?.text == "42")
        #expect(line.fields?["ratio"]?.text == "-1.5")
        #expect(line.fields?["ok"]?.text == "true")
        #expect(Self.read(Self.sent[5])?.message == "café 日本 😀 Aß")
        #expect(Self.read(Self.sent[4])?.message == "quote \" backslash \\ slash / controls \u{8}\u{C}\n\r\t end")
    }

    /// What the reader leaves to the decoder, which then decides: accepted there or refused
    /// with its own message.
    @Test func whatItNeedNotReadQuicklyIsLeftToTheDecoder() {
        let declined = [
            #"{\#(Self.base),"message":"m","appVersion":null}"#,                       // null
            #"{\#(Self.base),"message":"m","fields":null}"#,
            #"{\#(Self.base),"message":"m","\u0061ppVersion":"2"}"#,                  // a key with an escape
            #"{\#(Self.base),"message":"m","message":"again"}"#,                      // a key twice
            #"{\#(Self.base),"message":"m","fields":{"a":"1","a":"2"}}"#,
            #"{\#(Self.base),"message":"lone \ud83d surrogate"}"#,
            #"{\#(Self.base),"message":"m","x":\#(String(repeating: "[", count: 40))\#(String(repeating: "]", count: 40))}"#,
            #"{\#(Self.base),"message":"m","fields":{"a":null}}"#,                    // refused by the decoder
            #"{\#(Self.base),"message":"m","fields":{"a":{"b":1}}}"#,
            #"{\#(Self.base),"message":1}"#,
            #"{\#(Self.base)}"#,                                                        // no message
            #"{\#(Self.base),"message":"m"} {}"#,
            #"[{\#(Self.base),"message":"m"}]"#,
            #"{\#(Self.base),"message":"m",}"#,
            #"{\#(Self.base),"message":"m","n":01}"#,
            #"{\#(Self.base),"message":"m","n":1e999}"#,
            #"{\#(Self.base),"message":"tab\#("\t")raw"}"#,
            #"{\#(Self.base),"message":"bad \x escape"}"#,
            #"{\#(Self.base),"message":"m","n":tru}"#,
        ]
        for text in declined {
            #expect(Self.read(text) == nil, "\(text)")
        }
        let invalidUTF8 = Array(#"{\#(Self.base),"message":"#.utf8) + [0x22, 0xC3, 0x28, 0x22, 0x7D]
        #expect(Self.read(invalidUTF8) == nil)
        #expect(Self.decoded(invalidUTF8) == nil)
    }

    /// Lines bent at random — bytes dropped, repeated, replaced by what makes JSON go wrong —
    /// in a fixed sequence: whatever the reader accepts the decoder reads the same, and nothing
    /// the decoder refuses gets through.
    @Test func bentLinesAreNeverReadDifferentlyFromTheDecoder() throws {
        var random = SeededRandom(seed: 25)
        let pieces = ["\"", "\\", "{", "}", "[", "]", ",", ":", " ", "null", "true", "-", "0", "1e5", ".", "\\u", "\\ud83d",
                      "\\n", "é", "\u{0}", "\t", "\"fields\":{\"a\":1}", "\"app\":\"x\""].map { Array($0.utf8) } + [[0xC3], [0xFF], [0x80]]
        var agreed = 0, declined = 0
        for example in 0..<20_000 {
            var bytes = Array(Self.sent[example % Self.sent.count].utf8)
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                let end = min(bytes.count, at + Int.random(in: 0...3, using: &random))
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes.removeSubrange(at..<end)
                case 1: bytes.insert(contentsOf: pieces.randomElement(using: &random)!, at: at)
                case 2: bytes.replaceSubrange(at..<end, with: pieces.randomElement(using: &random)!)
                default: bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let read = Self.read(bytes)
            let decoded = Self.decoded(bytes)
            if let read {
                #expect(read == decoded, "\(String(decoding: bytes, as: UTF8.self))")
                agreed += 1
            } else if decoded != nil {
                declined += 1
            }
        }
        // Enough bent lines stay valid for the comparison to mean something.
        #expect(agreed > 2_000)
        #expect(declined < agreed / 10)
    }
}
