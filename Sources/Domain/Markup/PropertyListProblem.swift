/// Why a property list was refused. `line` is where the offending element starts; `column`
/// is known only for XML syntax problems, which are found character by character.
public struct PropertyListProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int?
    public let reason: String

    public init(line: Int, column: Int? = nil, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    init(_ problem: SyntaxProblem) {
        self.init(line: problem.line, column: problem.column, reason: problem.reason)
    }

    public var description: String {
        if let column { "line \(line), column \(column): \(reason)" } else { "line \(line): \(reason)" }
    }
}
