@testable import Domain
import Testing

@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        "{}", "[]", "0", "-0", "1e5", "1E+5", "-1.25e-3", "0.5", "123456789012345678901234567890",
        "\"text\"", "true", "false", "null", " \t\r\n [ 1 , 2 ] \n",
        #"{"a": [1, {"b": null}], "c": "d", "e": true}"#,
        #""escapes \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00""#,
        "\"unicode ünïcödé 😀\"", "\u{FEFF}{}",
    ])
    func acceptsValidJSON(_ text: String) {
        #expect(JSONSyntax.check(text) == nil)
    }

    @Test(arguments: [
        ("01", 1, 1, "leading zeros are not allowed in numbers"),
        ("-01", 1, 2, "leading zeros are not allowed in numbers"),
        ("1.", 1, 3, "expected a digit after the decimal point"),
        ("-", 1, 2, "expected a digit after '-'"),
        ("-a", 1, 2, "expected a digit after '-'"),
        (".5", 1, 1, "unexpected '.'; expected a value"),
        ("+1", 1, 1, "unexpected '+'; expected a value"),
        ("1e", 1, 3, "expected a digit in the exponent"),
        ("1e+", 1, 4, "expected a digit in the exponent"),
        ("1.5.2", 1, 4, "unexpected text after the JSON value"),
    ])
    func refusesMalformedNumbers(_ text: String, _ line: Int, _ column: Int, _ reason: String) {
        #expect(JSONSyntax.check(text) == SyntaxProblem(line: line, column: column, reason: reason))
    }

    @Test func trailingCommaReportsItsLine() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n}"
        #expect(JSONSyntax.check(text) == SyntaxProblem(line: 3, column: 9, reason: "trailing comma is not allowed"))
        #expect(JSONSyntax.check("[\n  1,\n  2,\n]") == SyntaxProblem(line: 3, column: 4, reason: "trailing comma is not allowed"))
    }

    @Test func missingCommaBetweenMembers() {
        let text = "{\n  \"a\": 1\n  \"b\": 2\n}"
        #expect(JSONSyntax.check(text) == SyntaxProblem(line: 3, column: 3, reason: "expected ',' or '}' after an object member"))
        #expect(JSONSyntax.check("[1 2]") == SyntaxProblem(line: 1, column: 4, reason: "expected ',' or ']' after an array element"))
        #expect(JSONSyntax.check("[1}")?.reason == "expected ',' or ']' after an array element")
    }

    @Test(arguments: [
        ("", "the text is empty; expected a JSON value"),
        ("   ", "the text is empty; expected a JSON value"),
        ("{", "the text ends inside an object; expected '}'"),
        ("[1,", "the text ends inside an array; expected ']'"),
        ("{\"a\"}", "expected ':' after an object key"),
        ("{\"a\":}", "expected a value, found '}'"),
        ("{a: 1}", "expected a key in double quotes or '}'"),
        ("{\"a\": 1,}", "trailing comma is not allowed"),
        ("{\"a\": 1, 2}", "expected a key in double quotes after ','"),
        ("[,1]", "expected a value, found ','"),
        ("['a']", "strings must be in double quotes"),
        ("tru", "unexpected 't'; expected a value (did you mean true?)"),
        ("nul", "unexpected 'n'; expected a value (did you mean null?)"),
        ("True", "unexpected 'T'; expected a value"),
        ("{} {}", "unexpected text after the JSON value"),
        ("1 // comment", "unexpected text after the JSON value"),
    ])
    func refusesMalformedStructure(_ text: String, _ reason: String) {
        #expect(JSONSyntax.check(text)?.reason == reason)
    }

    @Test func unterminatedStringPointsAtItsOpeningQuote() {
        #expect(JSONSyntax.check("{\n  \"name\": \"Ann") == SyntaxProblem(line: 2, column: 11, reason: "unterminated string"))
        #expect(JSONSyntax.check("\"ends in escape \\") == SyntaxProblem(line: 1, column: 18, reason: "unterminated string"))
    }

    @Test(arguments: [
        ("\"tab\there\"", "the control character U+0009 must be escaped in a string"),
        ("\"nul\u{0}\"", "the control character U+0000 must be escaped in a string"),
        ("\"line\nbreak\"", "a string cannot contain a line break; write \\n"),
        (#""bad \x escape""#, "invalid escape \\x in a string"),
        (#""\u12G4""#, "\\u must be followed by four hexadecimal digits"),
        (#""\uD83D alone""#, "\\uD83D is the first half of a surrogate pair without the second"),
        (#""\uDE00""#, "\\uDE00 is the second half of a surrogate pair without the first"),
        (#""\uD83D\u0041""#, "\\uD83D is the first half of a surrogate pair without the second"),
    ])
    func refusesMalformedStrings(_ text: String, _ reason: String) {
        #expect(JSONSyntax.check(text)?.reason == reason)
    }

    @Test func columnsCountCharacters() {
        #expect(JSONSyntax.check("[\"äöü😀\" 1]")?.column == 9)
        #expect(JSONSyntax.check("[1,\r\n2,\r3 4]") == SyntaxProblem(line: 3, column: 3, reason: "expected ',' or ']' after an array element"))
    }

    @Test func deepNestingIsRefusedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONSyntax.check(deep) == SyntaxProblem(
            line: 1, column: 513, reason: "arrays and objects are nested more than 512 levels deep"))
        let allowed = String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(JSONSyntax.check(allowed) == nil)
        #expect(JSONSyntax.check("[[1]]", maximumDepth: 1)?.reason == "arrays and objects are nested more than 1 levels deep")
    }

    @Test func describesTheProblemWithItsPosition() {
        #expect(JSONSyntax.check("[1,]")?.description == "line 1, column 3: trailing comma is not allowed")
    }
}
