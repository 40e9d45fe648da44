/// SQLite FTS5's `unicode61` tokenizer with `remove_diacritics 2` and its default separators,
/// the one the log index uses, reproduced over UTF-8 bytes so that lines the index has not
/// reached yet split into the very tokens the index will store for them:
/// - ASCII letters and digits are token characters, folded to lower case; all other ASCII
///   separates tokens (so `E_TIMEOUT` is the tokens `e` `timeout`, `com.example.app` three).
/// - Above ASCII, SQLite's Unicode 6.1 categories decide: letters, numbers, private use and
///   unassigned code points are token characters, the rest separate; a few combining marks
///   (U+0300…U+0331) do not start a token but continue one and vanish from it.
/// - Each token character folds to one code point: lower case, then without its diacritics
///   (`Café` and `CAFE` are both `cafe`).
/// - Bytes are read as SQLite reads them, malformed UTF-8 included (a stray continuation byte
///   is the code point of its value, an overlong or surrogate form is U+FFFD).
/// The tables come from the linked SQLite itself (scripts/unicode61-tables.py).
struct Unicode61: @unchecked Sendable {
    // @unchecked: the buffers are written once in `init` and only read afterwards; they
    // live as long as the process (`shared`), so a scan reads them without bounds checks or
    // reference counting.
    static let shared = Unicode61()

    enum Kind: UInt8 { case separator = 0, token = 1, joiningMark = 2 }

    /// The kind of each code point below U+10000.
    private let basicKinds: UnsafeMutableBufferPointer<UInt8>
    /// What each code point below U+10000 folds to; 0 for nothing.
    private let basicFolds: UnsafeMutableBufferPointer<UInt16>
    /// Each ASCII byte folded, 0 for a separator: the hot path of a scan.
    private let asciiFolds: UnsafeMutablePointer<UInt8>

    private init() {
        basicKinds = .allocate(capacity: 0x10000)
        basicFolds = .allocate(capacity: 0x10000)
        asciiFolds = .allocate(capacity: 0x80)
        for byte in 0..<UInt8(0x80) {
            asciiFolds[Int(byte)] = Self.isASCIITokenByte(byte) ? UInt8(Self.foldBySearch(UInt32(byte))) : 0
        }
        for c in 0..<0x10000 {
            basicKinds[c] = Self.kindBySearch(UInt32(c)).rawValue
            basicFolds[c] = UInt16(Self.foldBySearch(UInt32(c)))
        }
    }

    /// The kind of a code point; `c` may exceed U+10FFFF when the bytes were malformed.
    @inline(__always)
    func kind(_ c: UInt32) -> Kind {
        c < 0x10000 ? Kind(rawValue: basicKinds[Int(c)]).unsafelyUnwrapped : Self.kindBySearch(c)
    }

    /// The code point a token character folds to, 0 when it vanishes.
    @inline(__always)
    func fold(_ c: UInt32) -> UInt32 {
        c < 0x10000 ? UInt32(basicFolds[Int(c)]) : Self.foldBySearch(c)
    }

    private static func kindBySearch(_ c: UInt32) -> Kind {
        if c < 0x80 { return isASCIITokenByte(UInt8(c)) ? .token : .separator }
        if joiningMarks.contains(c) { return .joiningMark }
        // The last range starting at or before c decides.
        var low = 0, high = separatorRanges.count / 2 - 1, found = -1
        while low <= high {
            let middle = (low + high) / 2
            if separatorRanges[middle * 2] <= c { found = middle; low = middle + 1 } else { high = middle - 1 }
        }
        return found >= 0 && c <= separatorRanges[found * 2 + 1] ? .separator : .token
    }

    private static func foldBySearch(_ c: UInt32) -> UInt32 {
        if c < 0x80 { return c >= 0x41 && c <= 0x5A ? c + 32 : c }
        if joiningMarks.contains(c) { return 0 }
        var low = 0, high = folds.count / 2 - 1
        while low <= high {
            let middle = (low + high) / 2
            let from = folds[middle * 2]
            if from == c { return folds[middle * 2 + 1] }
            if from < c { low = middle + 1 } else { high = middle - 1 }
        }
        return c
    }

    @inline(__always)
    static func isASCIITokenByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
    }

    /// Reads one character starting at a byte ≥ 0x80 the way SQLite's READ_UTF8 does, advancing
    /// `index` past it and every continuation byte that follows.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32 {
        let lead = bytes[index]
        index += 1
        guard lead >= 0xC0 else { return UInt32(lead) }
        var c: UInt32 = switch lead {
        case ..<0xE0: UInt32(lead & 0x1F)
        case ..<0xF0: UInt32(lead & 0x0F)
        case ..<0xF8: UInt32(lead & 0x07)
        case ..<0xFC: UInt32(lead & 0x03)
        case ..<0xFE: UInt32(lead & 0x01)
        default: 0
        }
        while index < bytes.count && bytes[index] & 0xC0 == 0x80 {
            c = (c &<< 6) &+ UInt32(bytes[index] & 0x3F)
            index += 1
        }
        if c < 0x80 || c & 0xFFFF_F800 == 0xD800 || c & 0xFFFF_FFFE == 0xFFFE { c = 0xFFFD }
        return c
    }

    /// Writes `c` as SQLite's WRITE_UTF8 does (four bytes at most, whatever its size); returns
    /// the number of bytes written.
    @inline(__always)
    static func encode(_ c: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch c {
        case ..<0x80:
            out[0] = UInt8(c)
            return 1
        case ..<0x800:
            out[0] = 0xC0 | UInt8((c >> 6) & 0x1F)
            out[1] = 0x80 | UInt8(c & 0x3F)
            return 2
        case ..<0x10000:
            out[0] = 0xE0 | UInt8((c >> 12) & 0x0F)
            out[1] = 0x80 | UInt8((c >> 6) & 0x3F)
            out[2] = 0x80 | UInt8(c & 0x3F)
            return 3
        default:
            out[0] = 0xF0 | UInt8((c >> 18) & 0x07)
            out[1] = 0x80 | UInt8((c >> 12) & 0x3F)
            out[2] = 0x80 | UInt8((c >> 6) & 0x3F)
            out[3] = 0x80 | UInt8(c & 0x3F)
            return 4
        }
    }

    /// The most bytes the folded tokens of a text of `count` bytes can take (a stray byte
    /// 0x80…0xBF becomes a two-byte character; nothing grows more).
    static func foldCapacity(_ count: Int) -> Int { 2 * count + 4 }

    /// Calls `body` with each token of `text` in order: the byte range it covers in `text` and
    /// its folded bytes (in `scratch`, valid during the call, of at least `foldCapacity` bytes).
    /// `body` returns false to stop.
    @inline(__always)
    func forEachToken(
        in text: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
        _ body: (_ start: Int, _ end: Int, _ folded: UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        let count = text.count
        var index = 0
        while true {
            // Skip separators up to the first character of a token, folding it.
            var length = 0
            var start = 0
            while true {
                guard index < count else { return }
                let byte = text[index]
                if byte < 0x80 {
                    let folded = asciiFolds[Int(byte)]
                    index += 1
                    if folded != 0 {
                        start = index - 1
                        scratch[0] = folded
                        length = 1
                        break
                    }
                } else {
                    let first = index
                    let c = Self.decode(text, &index)
                    if kind(c) == .token {
                        start = first
                        let folded = fold(c)
                        if folded != 0 { length = Self.encode(folded, into: scratch) }
                        break
                    }
                }
            }
            // The rest of the token: ASCII letters and digits, token characters, joining marks.
            var end = -1
            while index < count {
                let byte = text[index]
                if byte < 0x80 {
                    let folded = asciiFolds[Int(byte)]
                    guard folded != 0 else { break }
                    scratch[length] = folded
                    length += 1
                    index += 1
                } else {
                    let before = index
                    let c = Self.decode(text, &index)
                    guard kind(c) != .separator else {
                        end = before
                        break
                    }
                    let folded = fold(c)
                    if folded != 0 { length += Self.encode(folded, into: scratch + length) }
                }
            }
            if end < 0 { end = index }
            guard body(start, end, UnsafeBufferPointer(start: scratch, count: length)) else { return }
        }
    }

    /// The folded tokens of a short text, such as a search term.
    func tokens(of text: String) -> [[UInt8]] {
        Array(text.utf8).withUnsafeBufferPointer { tokens(in: $0) }
    }

    func tokens(in bytes: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.foldCapacity(bytes.count)) { scratch in
            forEachToken(in: bytes, scratch: scratch.baseAddress!) { _, _, folded in
                tokens.append(Array(folded))
                return true
            }
        }
        return tokens
    }
}
