/// Reads untrusted XML (custom settings, AppConfig specfiles, `.mobileconfig` property lists)
/// into a tree of `ParsedXMLElement`s.
///
/// Safe by construction against XXE and entity expansion ("billion laughs"): the reader never
/// opens a URL or file and knows only XML's five predefined entities and numeric character
/// references. A DOCTYPE is accepted only as a bare name with an external identifier, which
/// is never fetched; an internal subset, any `<!ENTITY` and any other `&name;` are refused.
/// It is non-validating and does not resolve namespaces: `a:b` is just a name.
public enum XMLReader {
    /// Bounds that keep a hostile document from exhausting the stack or memory.
    public struct Limits: Equatable, Sendable {
        /// The most the depth limit can be raised to. The reader itself keeps open elements
        /// on an explicit stack, but code walking the finished tree (and releasing it) recurses
        /// once per level, so the tree must stay shallow enough for any thread's stack.
        public static let depthCeiling = 1_000

        public let maximumDepth: Int
        public let maximumElementCount: Int

        /// `maximumDepth` is clamped to `1...depthCeiling`.
        public init(maximumDepth: Int = 64, maximumElementCount: Int = 100_000) {
            self.maximumDepth = min(max(maximumDepth, 1), Self.depthCeiling)
            self.maximumElementCount = max(maximumElementCount, 1)
        }
    }

    /// The root element of `text`, or the first problem that makes it unacceptable.
    public static func parse(_ text: String, limits: Limits = Limits()) throws(SyntaxProblem) -> ParsedXMLElement {
        let parser = XMLDocumentParser(source: try XMLSource(text), limits: limits)
        return try parser.readDocument()
    }
}
