/// Why a piece of XML or JSON text was refused, and where.
///
/// `line` and `column` are 1-based; the column counts characters (what an editor shows), not
/// bytes, so an admin can find the spot in the text they pasted.
public struct SyntaxProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    /// One sentence for a person, e.g. "the tag <b> is closed by </a>" or "trailing comma is not allowed".
    public let reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column): \(reason)" }
}
