import Domain
import Foundation
import Testing

/// What a helpdesk user types reaches FTS5 only as quoted strings joined by operators we wrote,
/// and a search that cannot be read gets a sentence, never an FTS5 error.
@Suite struct LogSearchTests {
    func expression(_ text: String) throws -> String { try LogSearch(text).expression }

    func problem(_ text: String) -> String? {
        do {
            _ = try LogSearch(text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func wordsSideBySideMeanAllOfThem() throws {
        #expect(try expression("timeout") == #""timeout""#)
        #expect(try expression("sync  timeout") == #"("sync" AND "timeout")"#)
        #expect(try expression("sync AND timeout") == #"("sync" AND "timeout")"#)
    }

    @Test func identifiersArePhrasesSoTheirPartsMatchInOrder() throws {
        // FTS5 splits a quoted string into its tokens: "E_TIMEOUT" is the phrase e timeout.
        #expect(try expression("E_TIMEOUT") == #""E_TIMEOUT""#)
        #expect(try expression("com.example.checkin") == #""com.example.checkin""#)
        #expect(try expression("E_TIME*") == #""E_TIME"*"#)
        #expect(try expression(#""com.exa"*"#) == #""com.exa"*"#)
    }

    @Test func quotesPrecedenceAndBrackets() throws {
        #expect(try expression(#""connection reset" OR refused"#) == #"("connection reset" OR "refused")"#)
        // NOT binds tighter than AND, AND tighter than OR, as in FTS5.
        #expect(try expression("a OR b c NOT d") == #"("a" OR ("b" AND ("c" NOT "d")))"#)
        #expect(try expression("(retry OR sync) NOT server") == #"(("retry" OR "sync") NOT "server")"#)
    }

    @Test func ftsSyntaxTypedByTheUserIsJustText() throws {
        #expect(try expression("NEAR(a b)") == #"("NEAR" AND ("a" AND "b"))"#)
        #expect(try expression("message:timeout") == #""message:timeout""#)
        #expect(try expression("^start +plus -minus") == #"(("^start" AND "+plus") AND "-minus")"#)
        // Lower-case operators are words, as in FTS5.
        #expect(try expression("sign in or out") == #"((("sign" AND "in") AND "or") AND "out")"#)
        // A quote inside a word is the end of the word, and the phrase after it must be closed.
        #expect(try expression(#"say"hi""#) == #"("say" AND "hi")"#)
    }

    @Test func punctuationAloneIsLeftOutOrRefused() throws {
        #expect(try expression("timeout ---") == #""timeout""#)
        #expect(try expression("timeout NOT ---") == #""timeout""#)
        #expect(problem("--- !!!") != nil)
    }

    @Test func searchesThatCannotBeReadSaySo() {
        #expect(problem(#"say "hello"#) == "A quote is not closed: add the closing \" or remove the opening one.")
        #expect(problem("(retry OR sync") == "A ( is not closed: add the ) or remove the (.")
        #expect(problem("retry)") == "A ) has no ( before it.")
        #expect(problem("()") == "The brackets () have nothing inside.")
        #expect(problem("NOT timeout") == "NOT needs a word before it, as in crash NOT timeout.")
        #expect(problem("timeout AND") == "AND needs a word after it.")
        #expect(problem("timeout AND OR sync") == "AND is followed by OR; put a word between them.")
        #expect(problem("OR sync") == "OR needs a word before it.")
        #expect(problem("*") == "Put * at the end of a word to find words starting with it, as in time*.")
        #expect(problem("ti*me") != nil)
        #expect(problem("   ") == "Type a word to search for.")
        #expect(problem(String(repeating: "a ", count: 17)) == "Use at most 16 words and phrases.")
        #expect(problem(String(repeating: "x", count: 301)) != nil)
        #expect(problem("a\u{0}b") == "Remove the invisible control character (U+0000).")
    }
}

@Suite struct LogLineTests {
    let line = LogLine(app: "com.example.checkin", level: .error, kind: .application, loggedAt: Date(timeIntervalSince1970: 0),
                       message: "Printer offline")

    @Test func aGoodLineHasNoProblems() {
        #expect(line.validate().isEmpty)
        var crash = line
        crash.kind = .crash
        crash.message = "Fatal error: Index out of range\n\tReceiptPrinter.swift:42"
        #expect(crash.validate().isEmpty)
    }

    @Test func eachRuleNamesItsField() {
        var bad = line
        bad.app = "checkin"
        bad.message = String(repeating: "é", count: 4097)
        bad.fields = ["store": String(repeating: "x", count: 1025)]
        let errors = bad.validate()
        #expect(errors["app"] != nil)
        #expect(errors["message"] == "A message is at most 8 KB; this one is 8194 bytes.")
        #expect(errors["fields.store"] != nil)
        var control = line
        control.message = "bell\u{07}"
        #expect(control.validate()["message"] == "Remove the invisible control character (U+0007).")
        control.message = ""
        #expect(control.validate()["message"] == "The message is empty.")
    }

    @Test func crashesGroupByTheirFirstMeaningfulLine() {
        let report = """
            Incident Identifier: 5D9C0C5B-1C3A-4E77-9A0D-0D6F1B2A9E11
            Hardware Model:      iPad13,1
            Version:             2.4.1 (241)
            OS Version:          iPadOS 18.1

            Fatal error: Index out of range at 0x00000001a2b3c4d0 in order 1234567
            """
        #expect(CrashSignature.of(report) == "Fatal error: Index out of range at 0x… in order #")
        #expect(CrashSignature.of(report.replacingOccurrences(of: "1a2b3c4d0", with: "ffee00")) == CrashSignature.of(report))
        #expect(CrashSignature.of("EXC_BAD_ACCESS at ReceiptPrinter.swift:42") == "EXC_BAD_ACCESS at ReceiptPrinter.swift:42")
        #expect(CrashSignature.of("\n\n") == "(empty crash report)")
        // Spaces and tabs around a line, and a line of nothing else, are not what groups it;
        // a no-break or ideographic space is a space too.
        #expect(CrashSignature.of(" \t \n\t\u{A0}Process:  Kiosk \n  \u{3000}SIGABRT in main \t\r\n") == "SIGABRT in main")
        #expect(CrashSignature.reportedVersion(in: "\t Version:  2.4.0 (240) ") == "2.4.0")
        #expect(CrashSignature.of(String(repeating: "a", count: 500)).count == CrashSignature.maximumLength + 1)
    }
}
