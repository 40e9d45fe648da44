/// One DER element: its tag and where it and its contents lie in the bytes it was read from.
struct DERElement {
    let tag: UInt8
    /// From the tag byte to the end of the contents: the element as encoded.
    let whole: Range<Int>
    let contents: Range<Int>
}

/// Reads definite-length DER out of a byte array without copying, never past the range it was
/// given. What DER does not allow or this reader does not need — BER's indefinite lengths,
/// tags of more than one byte, lengths of more than four bytes — answers nil, as does any
/// length that runs past the end: the caller then leaves the input to OpenSSL.
struct DERReader {
    let bytes: [UInt8]
    private var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) { self.init(bytes, within: bytes.indices) }

    private init(_ bytes: [UInt8], within range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position == end }

    /// A reader over `element`'s contents.
    func inside(_ element: DERElement) -> DERReader { DERReader(bytes, within: element.contents) }

    /// The next element, if it is well formed and (when given) has `tag`.
    mutating func next(_ tag: UInt8? = nil) -> DERElement? {
        let start = position
        guard end - start >= 2, bytes[start] & 0x1F != 0x1F else { return nil }
        let found = bytes[start]
        if let tag, found != tag { return nil }
        var cursor = start + 1
        let first = Int(bytes[cursor])
        cursor += 1
        var length = first
        if first >= 0x80 {
            let octets = first & 0x7F
            guard (1...4).contains(octets), end - cursor >= octets else { return nil }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard length <= end - cursor else { return nil }
        position = cursor + length
        return DERElement(tag: found, whole: start..<position, contents: cursor..<position)
    }

    /// The contents of `element` as bytes.
    func contents(of element: DERElement) -> ArraySlice<UInt8> { bytes[element.contents] }

    /// Whether the next element is an OBJECT IDENTIFIER with these content bytes (consumed if so).
    mutating func nextIsObjectIdentifier(_ identifier: [UInt8]) -> Bool {
        guard let element = next(DERTag.objectIdentifier) else { return false }
        return contents(of: element).elementsEqual(identifier)
    }
}

/// The universal and context tags the signature reader meets.
enum DERTag {
    static let integer: UInt8 = 0x02
    static let octetString: UInt8 = 0x04
    static let objectIdentifier: UInt8 = 0x06
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31
    /// `[0]` constructed: explicit content, implicit certificate sets and signed attributes.
    static let context0: UInt8 = 0xA0
    static let context1: UInt8 = 0xA1
}
