/// A QR code (ISO/IEC 18004) of a text, so a link can be opened by pointing a phone at the screen:
/// an enrollment link carries a 43-character random token that nobody should have to type on an
/// iPhone.
///
/// The text is encoded as its UTF-8 bytes in byte mode, the one mode that carries any text (the
/// iPhone camera reads byte mode as UTF-8), in the smallest of the 40 versions (sizes) that holds
/// it at the level of error correction asked, with the data mask the standard's penalty rules
/// choose. The steps follow the standard's order, one file each: the bit stream and its blocks
/// (QRCode+Codewords), Reed–Solomon error correction (QRCode+ReedSolomon), the function patterns
/// and the placement of the codewords (QRCode+Matrix), masking (QRCode+Mask), and drawing
/// (QRCode+SVG).
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged or hidden and still read: a larger share costs
    /// codewords, so the same text needs a larger version.
    public enum ErrorCorrection: Sendable, Equatable, CaseIterable {
        /// L: about 7% of the codewords can be restored.
        case low
        /// M: about 15%; the usual choice for a code shown on a screen.
        case medium
        /// Q: about 25%.
        case quartile
        /// H: about 30%, for codes printed where they get scratched or have a logo over them.
        case high
    }

    /// Why a text cannot be made into a QR code: it is longer than version 40, the largest,
    /// holds at that level of error correction.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The text's length in UTF-8 bytes, what byte mode stores.
        public let byteCount: Int
        /// The most bytes version 40 holds at the level asked.
        public let capacity: Int

        public var message: String {
            "This text is \(byteCount) bytes long; a QR code holds at most \(capacity) bytes at this level of error correction."
        }

        public var description: String { message }
    }

    /// 1...40; the symbol is 17 + 4 × version modules wide.
    public let version: Int
    public let correction: ErrorCorrection
    /// The data mask (0...7) the penalty rules chose; readers learn it from the format information.
    public let mask: Int
    /// Modules on each side, without the quiet zone.
    public let size: Int
    /// Row after row, true for dark.
    private let modules: [Bool]

    /// Encodes `text`, or says it is too long for any version at `correction`.
    public init(_ text: String, correction: ErrorCorrection = .medium) throws(Problem) {
        let bytes = Array(text.utf8)
        guard let version = (1...40).first(where: { Self.byteCapacity(version: $0, correction: correction) >= bytes.count }) else {
            throw Problem(byteCount: bytes.count, capacity: Self.byteCapacity(version: 40, correction: correction))
        }
        var matrix = Matrix(version: version)
        matrix.place(Self.codewords(bytes, version: version, correction: correction))
        let (mask, modules) = matrix.bestMasked(correction: correction)
        self.version = version
        self.correction = correction
        self.mask = mask
        self.size = matrix.size
        self.modules = modules
    }

    /// True when the module at `row` and `column` (0-based, from the top-left, quiet zone not
    /// counted) is dark.
    public subscript(row: Int, column: Int) -> Bool {
        precondition((0..<size).contains(row) && (0..<size).contains(column), "QR module (\(row), \(column)) is outside a \(size)-module code")
        return modules[row * size + column]
    }
}
