/// A regular expression checked against a whole text in bounded time.
///
/// `NSRegularExpression` backtracks: an admin's `(a+)+` held a save for seconds on a value of two
/// dozen letters. This matcher follows every way through the pattern at once (one set of states
/// per character read, a Thompson NFA), so a match costs at most the pattern's states times the
/// text's Unicode scalars, whatever the pattern.
///
/// It reads the part of ICU's syntax that devices check with `NSRegularExpression` and answers as
/// `^(?:pattern)$` does there, with one difference: `$` matches only at the very end (ICU also
/// lets it match before a final line break). Anything whose meaning this matcher would not
/// reproduce — back-references, look-around, flags, possessive quantifiers … — is refused with a
/// message rather than read differently.
public struct BoundedPattern: Sendable {
    /// Why a pattern is refused, in words fit to show beside the field.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        init(message: String) { self.message = message }

        static func invalid(_ detail: String) -> Problem {
            Problem(message: "This pattern is not a valid regular expression: \(detail).")
        }

        static func unchecked(_ what: String, _ advice: String) -> Problem {
            Problem(message: "This pattern uses \(what), which the console does not check; \(advice).")
        }
    }

    /// The most states a pattern may expand to. Each state is looked at, at most, once per
    /// character, so this bounds the work of one match; counted repetition (`x{2,500}`) is
    /// expanded, and a class costs one state for each range or shorthand it lists.
    public static let maximumStates = 1_000
    /// The largest count `{n}` or `{n,m}` may ask for.
    public static let maximumCount = 1_000
    /// Groups inside groups, at most: the parser descends once for each.
    public static let maximumNesting = 50

    private let steps: [Step]
    /// The tests of every step that reads a scalar, each step's side by side.
    private let tests: [ScalarTest]

    /// Reads `pattern`, or says why the console will not check values against it.
    public init(_ pattern: String) throws(Problem) {
        var parser = Parser(Array(pattern.unicodeScalars))
        let root = try parser.wholePattern()
        var compiler = Compiler(sets: parser.sets)
        try compiler.emit(root)
        compiler.steps.append(.accept)
        (steps, tests) = (compiler.steps, compiler.tests)
    }

    /// Whether the whole of `text` matches, as `^(?:pattern)$` would.
    public func matchesWhole(_ text: String) -> Bool {
        var frontier = Frontier(stateCount: steps.count)
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        frontier.follow(0, through: steps, atStart: true, atEnd: index == scalars.endIndex)
        while index != scalars.endIndex {
            let scalar = scalars[index]
            scalars.formIndex(after: &index)
            frontier.advance()
            for position in frontier.reading.indices {
                let state = frontier.reading[position]
                if case .read(let tests, let isInverted) = steps[state], reads(scalar, tests, isInverted) {
                    frontier.follow(state + 1, through: steps, atStart: false, atEnd: index == scalars.endIndex)
                }
            }
            if frontier.waiting.isEmpty { return false }
        }
        return frontier.waiting.contains(steps.count - 1)
    }

    private func reads(_ scalar: Unicode.Scalar, _ range: Range<Int>, _ isInverted: Bool) -> Bool {
        for index in range where tests[index].passes(scalar) { return !isInverted }
        return isInverted
    }
}

// The pieces below are private to the pattern: the names are common ones in this module.
extension BoundedPattern {
    /// One instruction of the compiled pattern.
    private enum Step: Sendable {
        /// Read one scalar that passes one of `tests` (none of them, when inverted), then go on to
        /// the next step.
        case read(tests: Range<Int>, isInverted: Bool)
        /// Go on along both ways. Which is tried first does not change a yes/no answer.
        case fork(Int, Int)
        case jump(Int)
        case atStart, atEnd
        case accept
    }

    /// The states alive at one position of the text: those waiting to read a scalar, or `accept`.
    private struct Frontier {
        var waiting: [Int] = []
        /// The states of the position before, reading the scalar between the two.
        private(set) var reading: [Int] = []
        /// `marks[state] == generation` when the state was reached at this position: each state
        /// is followed once per position, which keeps loops such as `(a*)*` from spinning.
        private var marks: [Int]
        private var generation = 0
        private var pending: [Int] = []

        init(stateCount: Int) { marks = Array(repeating: -1, count: stateCount) }

        /// Moves to the next position. The two lists trade places, so neither is allocated again.
        mutating func advance() {
            generation += 1
            swap(&reading, &waiting)
            waiting.removeAll(keepingCapacity: true)
        }

        /// Adds `state` and every state reachable from it without reading a scalar.
        mutating func follow(_ state: Int, through steps: [Step], atStart: Bool, atEnd: Bool) {
            pending.append(state)
            while let state = pending.popLast() {
                guard marks[state] != generation else { continue }
                marks[state] = generation
                switch steps[state] {
                case .read, .accept: waiting.append(state)
                case .fork(let first, let second): pending.append(second); pending.append(first)
                case .jump(let target): pending.append(target)
                case .atStart: if atStart { pending.append(state + 1) }
                case .atEnd: if atEnd { pending.append(state + 1) }
                }
            }
        }
    }

    /// The parsed pattern. An empty `sequence` is the only node that compiles to no step, which
    /// keeps repeating a node from ever costing nothing.
    private indirect enum Node: Sendable {
        case scalar(set: Int)
        case start, end
        case sequence([Node])
        case choice([Node])
        case repetition(Node, minimum: Int, maximum: Int?)

        static let empty = Node.sequence([])

        var isEmpty: Bool {
            if case .sequence(let items) = self { items.isEmpty } else { false }
        }

        var canMatchEmpty: Bool {
            switch self {
            case .scalar: false
            case .start, .end: true
            case .sequence(let items): items.allSatisfy(\.canMatchEmpty)
            case .choice(let branches): branches.contains(where: \.canMatchEmpty)
            case .repetition(let body, let minimum, _): minimum == 0 || body.canMatchEmpty
            }
        }
    }

    /// Turns nodes into steps, counting states as it goes so that an expansion stops at the limit.
    private struct Compiler {
        private let sets: [ScalarSet]
        var steps: [Step] = []
        private(set) var tests: [ScalarTest] = []
        /// Where each set's tests are in `tests`: every copy of a step reads the same ones.
        private var testRanges: [Range<Int>] = []
        private var states = 0

        init(sets: [ScalarSet]) {
            self.sets = sets
            for set in sets {
                testRanges.append(tests.count..<tests.count + set.tests.count)
                tests += set.tests
            }
        }

        @discardableResult
        mutating func append(_ step: Step, cost: Int = 1) throws(Problem) -> Int {
            states += cost
            guard states <= BoundedPattern.maximumStates else {
                throw Problem(message: "This pattern is too large to check: it expands to more than \(BoundedPattern.maximumStates) states. Use smaller counts in { } or shorter classes.")
            }
            steps.append(step)
            return steps.count - 1
        }

        mutating func emit(_ node: Node) throws(Problem) {
            switch node {
            case .scalar(let set): try append(.read(tests: testRanges[set], isInverted: sets[set].isInverted), cost: max(1, sets[set].tests.count))
            case .start: try append(.atStart)
            case .end: try append(.atEnd)
            case .sequence(let items): for item in items { try emit(item) }
            case .choice(let branches):
                var exits: [Int] = []
                for branch in branches.dropLast() {
                    let fork = try append(.fork(0, 0))
                    try emit(branch)
                    exits.append(try append(.jump(0)))
                    steps[fork] = .fork(fork + 1, steps.count)
                }
                if let last = branches.last { try emit(last) }
                for exit in exits { steps[exit] = .jump(steps.count) }
            case .repetition(let body, let minimum, nil) where minimum > 0:
                // x{n,} is n-1 copies, then one copy that may loop back on itself.
                for _ in 1..<minimum { try emit(body) }
                let loopStart = steps.count
                try emit(body)
                let fork = try append(.fork(0, 0))
                steps[fork] = .fork(loopStart, fork + 1)
            case .repetition(let body, _, nil):
                let fork = try append(.fork(0, 0))
                try emit(body)
                try append(.jump(fork))
                steps[fork] = .fork(fork + 1, steps.count)
            case .repetition(let body, let minimum, let maximum?):
                // x{n,m} is n copies, then m-n that may each be skipped to the end.
                for _ in 0..<minimum { try emit(body) }
                var skips: [Int] = []
                for _ in minimum..<maximum {
                    skips.append(try append(.fork(0, 0)))
                    try emit(body)
                }
                for skip in skips { steps[skip] = .fork(skip + 1, steps.count) }
            }
        }
    }

    /// The scalars one step may read: a literal, `.`, a shorthand such as `\d`, or a class.
    /// A scalar belongs when it passes one of the tests, or none of them when inverted.
    private struct ScalarSet {
        var tests: [ScalarTest] = []
        var isInverted = false

        init() {}
        init(_ scalar: Unicode.Scalar) { tests = [.range(scalar...scalar)] }
        init(_ kind: ScalarKind, holds: Bool) { tests = [.kind(kind, holds: holds)] }
    }

    private enum ScalarTest: Sendable {
        case range(ClosedRange<Unicode.Scalar>)
        case kind(ScalarKind, holds: Bool)

        func passes(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .range(let range): range.contains(scalar)
            case .kind(let kind, let holds): kind.contains(scalar) == holds
            }
        }
    }

    /// ICU's shorthands, from the same Unicode properties ICU reads.
    private enum ScalarKind: Sendable {
        case digit, word, space
        /// What `.` does not match: \n, \v, \f, \r, U+0085, U+2028 and U+2029.
        case lineBreak

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            switch self {
            case .lineBreak: return (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
            // ASCII answers first: looking up Unicode properties costs more than the rest of a step.
            case .digit where value < 0x80: return (0x30...0x39).contains(value)
            case .space where value < 0x80: return (0x09...0x0D).contains(value) || value == 0x20
            case .word where value < 0x80:
                return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
            case .digit: return scalar.properties.generalCategory == .decimalNumber
            case .space: return scalar.properties.isWhitespace
            case .word:
                switch scalar.properties.generalCategory {
                case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark: return true
                default: return scalar.properties.isAlphabetic || value == 0x200C || value == 0x200D
                }
            }
        }
    }

    /// Reads ICU's syntax into nodes, refusing what the matcher would not reproduce.
    private struct Parser {
        /// An escape or class member: one scalar, which may begin a range, or a shorthand.
        enum Member {
            case scalar(Unicode.Scalar)
            case shorthand(ScalarSet)
        }

        private let scalars: [Unicode.Scalar]
        private var position = 0
        private var depth = 0
        private(set) var sets: [ScalarSet] = []
        /// Where the last `:]` of the pattern begins, found once rather than for every class.
        private let lastPOSIXClose: Int?

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
            lastPOSIXClose = scalars.indices.dropLast().last { scalars[$0] == ":" && scalars[$0 + 1] == "]" }
        }

        mutating func wholePattern() throws(Problem) -> Node {
            let node = try alternation()
            guard position == scalars.count else { throw .invalid("a ) closes a group that was never opened") }
            return node
        }

        private mutating func alternation() throws(Problem) -> Node {
            var branches = [try sequence()]
            while take("|") { branches.append(try sequence()) }
            return branches.count == 1 ? branches[0] : .choice(branches)
        }

        private mutating func sequence() throws(Problem) -> Node {
            var items: [Node] = []
            while let scalar = peek(), scalar != "|", scalar != ")" {
                let item = try repeated(try atom())
                if !item.isEmpty { items.append(item) }
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        private mutating func atom() throws(Problem) -> Node {
            let start = position
            guard let scalar = takeAny() else { return .empty }
            switch scalar {
            case "(": return try group()
            case "[": return .scalar(set: add(try characterClass()))
            case ".": return .scalar(set: add(ScalarSet(.lineBreak, holds: false)))
            case "^": return .start
            case "$": return .end
            case "\\":
                switch try escape() {
                case .scalar(let scalar): return .scalar(set: add(ScalarSet(scalar)))
                case .shorthand(let set): return .scalar(set: add(set))
                }
            case "*", "+", "?", "{":
                position = start
                _ = try quantifier()
                throw .invalid("\(text(from: start)) has nothing before it to repeat")
            case "}": throw .invalid("a } closes no count; write \\} for a brace")
            default: return .scalar(set: add(ScalarSet(scalar)))
            }
        }

        private mutating func repeated(_ atom: Node) throws(Problem) -> Node {
            let start = position
            guard let (minimum, maximum) = try quantifier() else { return atom }
            let written = text(from: start)
            if take("+") {
                throw .unchecked("a possessive quantifier (\(written)+)", "remove the last +, which changes what ICU matches")
            }
            // A lazy quantifier (*?) picks a different match, but whether there is one is the same,
            // except that ICU gives up too early when a lazy * or + repeats what can match nothing:
            // there, `(a?)*?b|` does not match "".
            if take("?"), maximum == nil, !written.hasPrefix("{"), atom.canMatchEmpty {
                throw .unchecked("a lazy \(written)? on something that can match nothing", "use \(written) instead, which devices answer correctly")
            }
            if let scalar = peek(), "*+?{".unicodeScalars.contains(scalar) {
                throw .invalid("another quantifier follows \(text(from: start)); to repeat a repetition, group it first, as (a{2}){3}")
            }
            return atom.isEmpty || maximum == 0 ? .empty : .repetition(atom, minimum: minimum, maximum: maximum)
        }

        /// `*`, `+`, `?` or a count such as `{2,5}`: the least and most repeats, nil for no most.
        private mutating func quantifier() throws(Problem) -> (Int, Int?)? {
            switch peek() {
            case "*": position += 1; return (0, nil)
            case "+": position += 1; return (1, nil)
            case "?": position += 1; return (0, 1)
            case "{": position += 1
            default: return nil
            }
            let notACount = Problem.invalid("{ does not begin a count such as {2}, {2,} or {2,5}; write \\{ for a brace")
            guard let minimum = number() else { throw notACount }
            let maximum = take(",") ? number() : minimum
            guard take("}") else { throw notACount }
            guard max(minimum, maximum ?? minimum) <= BoundedPattern.maximumCount else {
                throw Problem(message: "This pattern repeats something more than \(BoundedPattern.maximumCount) times; the console checks counts up to \(BoundedPattern.maximumCount).")
            }
            if let maximum, maximum < minimum {
                throw .invalid("in {\(minimum),\(maximum)} the first count is larger than the second")
            }
            return (minimum, maximum)
        }

        private mutating func group() throws(Problem) -> Node {
            if take("?"), !take(":") { throw unsupportedGroup() }
            depth += 1
            guard depth <= BoundedPattern.maximumNesting else {
                throw Problem(message: "This pattern puts groups more than \(BoundedPattern.maximumNesting) deep inside one another; the console checks up to \(BoundedPattern.maximumNesting).")
            }
            let inner = try alternation()
            guard take(")") else { throw .invalid("a group ( is not closed") }
            depth -= 1
            return inner
        }

        /// Names what `(?` begins, for a refusal: everything but `(?:` changes how ICU matches.
        private func unsupportedGroup() -> Problem {
            switch (peek(), peek(1)) {
            case ("="?, _): .unchecked("a look-ahead (?=…)", "rewrite it without one")
            case ("!"?, _): .unchecked("a negative look-ahead (?!…)", "rewrite it without one")
            case ("<"?, "="?): .unchecked("a look-behind (?<=…)", "rewrite it without one")
            case ("<"?, "!"?): .unchecked("a negative look-behind (?<!…)", "rewrite it without one")
            case ("<"?, _), ("P"?, _): .unchecked("a named group (?<name>…)", "use a plain group ( ) instead")
            case (">"?, _): .unchecked("an atomic group (?>…)", "use a plain group (?: ) instead")
            case ("#"?, _): .unchecked("a comment (?#…)", "remove it")
            case (let scalar?, _) where scalar == "-" || scalar.properties.isAlphabetic:
                .unchecked("an inline flag such as (?i)", "remove it: values are checked with case and lines as written")
            case (nil, _): .invalid("a group ( is not closed")
            default: .invalid("(? must be followed by : to make a group")
            }
        }

        /// `[…]`. ICU reads `[` inside a class, `&&` and `--` as set operations, and `[:alpha:]`
        /// as a POSIX class; they are refused rather than read as characters.
        private mutating func characterClass() throws(Problem) -> ScalarSet {
            if looksLikePOSIXClass() { throw Self.posixClass }
            var set = ScalarSet()
            set.isInverted = take("^")
            var isFirst = true
            while true {
                guard let scalar = peek() else { throw .invalid("a class [ is not closed") }
                // ICU reads a ] at the very start as a member: []a] is ] or a.
                if scalar == "]", !isFirst { position += 1; return set }
                isFirst = false
                if scalar == "[" { throw peek(1) == ":" ? Self.posixClass : Self.nestedClass }
                if scalar == "&" || scalar == "-", peek(1) == scalar { throw Self.setOperation(scalar) }
                let isBareAmpersand = scalar == "&"
                switch try classMember() {
                case .shorthand(let shorthand): set.tests += shorthand.tests
                case .scalar(let low):
                    // A - that cannot end a range (at the end, or after a shorthand) is a member.
                    guard peek() == "-", let after = peek(1), after != "]" else { set.tests.append(.range(low...low)); continue }
                    if after == "-" { throw Self.setOperation("-") }
                    if after == "[" { throw Self.nestedClass }
                    // ICU refuses some ranges that begin with a bare & and accepts others.
                    if isBareAmpersand || after == "&" { throw .unchecked("& at one end of a range", "write it \\& there") }
                    position += 1
                    guard case .scalar(let high) = try classMember() else {
                        throw .invalid("a range in a class must end in a character, not in \\d, \\w or \\s")
                    }
                    guard low <= high else { throw .invalid("the range \(Self.shown(low))-\(Self.shown(high)) in a class runs backwards") }
                    set.tests.append(.range(low...high))
                }
            }
        }

        private mutating func classMember() throws(Problem) -> Member {
            guard let scalar = takeAny() else { throw .invalid("a class [ is not closed") }
            return scalar == "\\" ? try escape() : .scalar(scalar)
        }

        /// ICU reads `[:` as the start of a POSIX class when a `:]` comes anywhere after it.
        private func looksLikePOSIXClass() -> Bool {
            guard peek() == ":", let lastClose = lastPOSIXClose else { return false }
            return lastClose >= position + 2
        }

        private static let nestedClass = Problem.unchecked("a class inside a class ([…[…]…])", "list the characters in one class")

        private static let posixClass = Problem.unchecked("a POSIX class such as [:alpha:]", "list the characters instead, as [a-zA-Z]")

        private static func setOperation(_ scalar: Unicode.Scalar) -> Problem {
            .unchecked("\(scalar)\(scalar) inside a class, which ICU reads as a set operation", "list the characters in one class, and write \\\(scalar) for the character itself")
        }

        /// After the backslash.
        private mutating func escape() throws(Problem) -> Member {
            guard let letter = takeAny() else { throw .invalid("it ends with a lone \\") }
            switch letter {
            case "d", "D": return .shorthand(ScalarSet(.digit, holds: letter == "d"))
            case "w", "W": return .shorthand(ScalarSet(.word, holds: letter == "w"))
            case "s", "S": return .shorthand(ScalarSet(.space, holds: letter == "s"))
            case "t": return .scalar("\t")
            case "n": return .scalar("\n")
            case "r": return .scalar("\r")
            case "f": return .scalar("\u{0C}")
            case "a": return .scalar("\u{07}")
            case "e": return .scalar("\u{1B}")
            case "u":
                guard let value = hexNumber(digits: 4...4) else { throw .invalid("\\u must be followed by four hex digits, as \\u00E9") }
                return .scalar(try Self.scalar(value))
            case "x":
                let braced = take("{")
                guard let value = hexNumber(digits: braced ? 1...6 : 1...2), !braced || take("}") else {
                    throw .invalid("\\x must be followed by one or two hex digits, as \\x41, or up to six in braces, as \\x{1F600}")
                }
                return .scalar(try Self.scalar(value))
            case "1"..."9": throw .unchecked("a back-reference (\\\(letter))", "rewrite it without one")
            case "k": throw .unchecked("a back-reference (\\k<name>)", "rewrite it without one")
            case "0": throw .unchecked("an octal escape (\\0…)", "write the character itself, or \\x{…} with its code point")
            case "b", "B": throw .unchecked("a word boundary (\\\(letter))", "rewrite it without one")
            case "A", "z", "Z", "G": throw .unchecked("the anchor \\\(letter)", "use ^ for the start and $ for the end")
            case "p", "P": throw .unchecked("a Unicode property (\\\(letter){…})", "list the characters in a class instead, as [a-zA-Z]")
            case "Q", "E": throw .unchecked("quoting (\\Q…\\E)", "put a \\ before each special character instead")
            default:
                // ICU reads any other escaped letter as itself, or as a feature this matcher lacks.
                guard letter.isASCII, letter.properties.isAlphabetic || ("0"..."9").contains(letter) else { return .scalar(letter) }
                throw .unchecked("the escape \\\(letter)", "write the character without \\; a \\ is only needed before punctuation")
            }
        }

        private static func scalar(_ value: UInt32) throws(Problem) -> Unicode.Scalar {
            if let scalar = Unicode.Scalar(value) { return scalar }
            if (0xD800...0xDFFF).contains(value) {
                throw .unchecked("half of a UTF-16 surrogate pair (\(shown(value)))", "write the character itself, or \\x{…} with its full code point")
            }
            throw .invalid("\(shown(value)) is beyond the last Unicode code point, U+10FFFF")
        }

        // MARK: Reading scalars

        private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            position + offset < scalars.count ? scalars[position + offset] : nil
        }

        private mutating func take(_ expected: Unicode.Scalar) -> Bool {
            guard peek() == expected else { return false }
            position += 1
            return true
        }

        private mutating func takeAny() -> Unicode.Scalar? {
            defer { if position < scalars.count { position += 1 } }
            return peek()
        }

        /// ASCII digits as a number, held at a ceiling so that a long run cannot overflow.
        private mutating func number() -> Int? {
            var value: Int?
            while let scalar = peek(), ("0"..."9").contains(scalar) {
                value = min((value ?? 0) * 10 + Int(scalar.value - 0x30), 1_000_000)
                position += 1
            }
            return value
        }

        /// As many hex digits as `digits` allows; nil when there are fewer than its lower bound.
        private mutating func hexNumber(digits: ClosedRange<Int>) -> UInt32? {
            var value: UInt32 = 0, count = 0
            while count < digits.upperBound, let digit = peek().flatMap({ Int(String($0), radix: 16) }) {
                value = value * 16 + UInt32(digit)
                count += 1
                position += 1
            }
            return count >= digits.lowerBound ? value : nil
        }

        private func text(from start: Int) -> String {
            String(String.UnicodeScalarView(scalars[start..<position]))
        }

        private mutating func add(_ set: ScalarSet) -> Int {
            sets.append(set)
            return sets.count - 1
        }

        /// A scalar as a message can show it: printable ASCII as itself, anything else as U+XXXX.
        private static func shown(_ scalar: Unicode.Scalar) -> String {
            (0x21...0x7E).contains(scalar.value) ? String(scalar) : shown(scalar.value)
        }

        private static func shown(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}
