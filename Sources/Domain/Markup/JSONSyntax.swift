/// Checks that pasted or uploaded text is JSON (RFC 8259) and, when it is not, says where
/// and why in words an admin can act on. No value is built: the caller decodes the text
/// afterwards with whatever decoder it uses, knowing the syntax is sound.
public enum JSONSyntax {
    /// Nesting deeper than this is refused. The checker keeps its own stack, so the limit
    /// protects the decoder that runs afterwards, which usually recurses once per level.
    public static let defaultMaximumDepth = 512

    /// nil when `text` is one JSON value surrounded by optional whitespace; otherwise the
    /// first problem found.
    public static func check(_ text: String, maximumDepth: Int = defaultMaximumDepth) -> SyntaxProblem? {
        var checker = JSONSyntaxChecker(bytes: Array(text.utf8), maximumDepth: max(maximumDepth, 1))
        do {
            try checker.checkDocument()
            return nil
        } catch {
            return error
        }
    }
}
