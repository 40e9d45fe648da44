/// The bit stream of a byte-mode QR code and its codewords: how many a version holds, how they
/// split into error-correction blocks, and the order they are placed in (ISO/IEC 18004 7.4–7.6).
extension QRCode {
    /// The most bytes one byte-mode segment can carry in `version` at `correction`: the data
    /// codewords less the mode indicator (4 bits) and the character count.
    static func byteCapacity(version: Int, correction: ErrorCorrection) -> Int {
        (BlockLayout(version: version, correction: correction).dataCodewords * 8 - 4 - countBits(version: version)) / 8
    }

    /// Bits of the character count in byte mode: 8 up to version 9, 16 from version 10.
    static func countBits(version: Int) -> Int {
        version <= 9 ? 8 : 16
    }

    /// Every codeword of the symbol in placement order: `bytes` as one byte-mode segment, padded
    /// to the version's data capacity, cut into blocks, each block's error correction computed,
    /// then the blocks interleaved.
    static func codewords(_ bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let layout = BlockLayout(version: version, correction: correction)
        let data = dataCodewords(bytes, version: version, count: layout.dataCodewords)
        var blocks: [[UInt8]] = []
        var start = 0
        for index in 0..<layout.blockCount {
            let length = layout.dataCodewords(inBlock: index)
            blocks.append(Array(data[start..<start + length]))
            start += length
        }
        let corrections = blocks.map { ReedSolomon.remainder(of: $0, degree: layout.correctionPerBlock) }

        // Interleaving spreads a burst of damage over every block: the first codeword of each
        // block, then the second of each …; the longer blocks (the later ones) have one more.
        var result: [UInt8] = []
        result.reserveCapacity(layout.totalCodewords)
        for position in 0..<(blocks.last?.count ?? 0) {
            for block in blocks where position < block.count { result.append(block[position]) }
        }
        for position in 0..<layout.correctionPerBlock {
            for correction in corrections { result.append(correction[position]) }
        }
        return result
    }

    /// Mode indicator 0100 (byte), the count, the bytes, a terminator of up to four 0 bits, 0 bits
    /// to the byte boundary, then the pad codewords 11101100 and 00010001 in turn to `count`.
    static func dataCodewords(_ bytes: [UInt8], version: Int, count: Int) -> [UInt8] {
        var stream = BitStream()
        stream.append(0b0100, bits: 4)
        stream.append(bytes.count, bits: countBits(version: version))
        for byte in bytes { stream.append(Int(byte), bits: 8) }
        stream.append(0, bits: min(4, count * 8 - stream.bitCount))
        stream.append(0, bits: (8 - stream.bitCount % 8) % 8)
        var codewords = stream.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < count {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Bits appended most significant first, packed into bytes.
    struct BitStream {
        private(set) var bytes: [UInt8] = []
        private(set) var bitCount = 0

        mutating func append(_ value: Int, bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                if bitCount % 8 == 0 { bytes.append(0) }
                if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount % 8) }
                bitCount += 1
            }
        }
    }

    /// How a version's codewords divide at one level of error correction (ISO/IEC 18004 table 9).
    /// Every block has the same number of error-correction codewords; when the data codewords do
    /// not divide evenly, the last blocks take one data codeword more than the first.
    struct BlockLayout {
        let totalCodewords: Int
        let blockCount: Int
        let correctionPerBlock: Int

        init(version: Int, correction: ErrorCorrection) {
            let level = correction.tableIndex
            totalCodewords = Self.totalCodewords(version: version)
            blockCount = Self.blockCounts[level][version - 1]
            correctionPerBlock = Self.correctionCodewordsPerBlock[level][version - 1]
        }

        var dataCodewords: Int { totalCodewords - blockCount * correctionPerBlock }

        func dataCodewords(inBlock index: Int) -> Int {
            let shortBlocks = blockCount - totalCodewords % blockCount
            return totalCodewords / blockCount - correctionPerBlock + (index < shortBlocks ? 0 : 1)
        }

        /// The modules left for codewords once the function patterns are drawn, in whole bytes
        /// (the 0–7 modules over are remainder bits, left light before masking): every module
        /// less the three finders with their separators (3 × 64), both copies of the format
        /// information and the dark module (31), the timing patterns between the separators, the
        /// alignment patterns (25 modules each, 5 of which are timing modules where one sits on
        /// row or column 6), and from version 7 both copies of the version information (36).
        static func totalCodewords(version: Int) -> Int {
            let size = 17 + 4 * version
            var function = 3 * 64 + 31 + 2 * (size - 16)
            if version >= 2 {
                let perSide = version / 7 + 2
                function += 25 * (perSide * perSide - 3) - 5 * 2 * (perSide - 2)
            }
            if version >= 7 { function += 36 }
            return (size * size - function) / 8
        }

        /// Error-correction codewords in each block, by level (L, M, Q, H) then version.
        static let correctionCodewordsPerBlock: [[Int]] = [
            [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
             28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
            [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
             26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
            [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
             28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
            [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
             30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        ]

        /// Error-correction blocks, by level (L, M, Q, H) then version.
        static let blockCounts: [[Int]] = [
            [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
             8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
            [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
             17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
            [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
             23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
            [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
             25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
        ]
    }
}

extension QRCode.ErrorCorrection {
    /// The row of the block tables: L, M, Q, H.
    var tableIndex: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .quartile: 2
        case .high: 3
        }
    }

    /// The two bits the format information carries, which are not in table order: L 01, M 00,
    /// Q 11, H 10.
    var formatBits: Int {
        switch self {
        case .low: 0b01
        case .medium: 0b00
        case .quartile: 0b11
        case .high: 0b10
        }
    }
}
