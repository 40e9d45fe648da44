extension QRCode {
    /// The symbol before masking: the function patterns a reader finds and aligns the code by
    /// (ISO/IEC 18004 6.3), then the codewords in the modules left over (7.7).
    struct Matrix {
        let version: Int
        let size: Int
        /// Row after row, true for dark.
        var dark: [Bool]
        /// True for modules of the function patterns and the format and version information,
        /// which hold no data and are never masked.
        var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: false, count: size * size)
            isFunction = Array(repeating: false, count: size * size)
            drawTimingPatterns()
            for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { drawFinderPattern(row: row, column: column) }
            drawAlignmentPatterns()
            // The format information depends on the mask; reserve its modules now.
            drawFormatInformation(correction: .medium, mask: 0)
            drawVersionInformation()
        }

        func index(_ row: Int, _ column: Int) -> Int { row * size + column }

        mutating func setFunction(_ row: Int, _ column: Int, dark isDark: Bool) {
            dark[index(row, column)] = isDark
            isFunction[index(row, column)] = true
        }

        /// Row 6 and column 6 between the finders: dark, light, dark … so a reader can count
        /// module positions. (Drawn across the whole symbol; the finders drawn next cover the ends.)
        private mutating func drawTimingPatterns() {
            for position in 0..<size {
                setFunction(6, position, dark: position % 2 == 0)
                setFunction(position, 6, dark: position % 2 == 0)
            }
        }

        /// A 7 × 7 finder (dark ring, light ring, dark 3 × 3 centre) with the light separator
        /// around it that stays inside the symbol.
        private mutating func drawFinderPattern(row top: Int, column left: Int) {
            for row in top - 1...top + 7 where (0..<size).contains(row) {
                for column in left - 1...left + 7 where (0..<size).contains(column) {
                    let ring = max(abs(row - top - 3), abs(column - left - 3))
                    setFunction(row, column, dark: ring != 2 && ring != 4)
                }
            }
        }

        /// Where alignment patterns are centred, on each axis (ISO/IEC 18004 annex E): none in
        /// version 1; from version 2, version / 7 + 2 positions from 6 to size − 7, counted back
        /// from size − 7 in equal gaps, each the even number at or just above
        /// (size − 13) / (positions − 1), so the first gap takes what is left over. The standard's
        /// table has one exception to that rule: version 32 uses gaps of 26, not 28.
        static func alignmentPositions(version: Int) -> [Int] {
            guard version >= 2 else { return [] }
            let size = 17 + 4 * version
            let count = version / 7 + 2
            let span = size - 13
            var gap = (span + count - 2) / (count - 1)
            if gap % 2 == 1 { gap += 1 }
            if version == 32 { gap = 26 }
            return [6] + (0..<count - 1).reversed().map { size - 7 - $0 * gap }
        }

        /// A 5 × 5 alignment pattern (dark ring, light ring, dark centre) at every crossing of
        /// the positions except the three a finder covers.
        private mutating func drawAlignmentPatterns() {
            let positions = Self.alignmentPositions(version: version)
            guard let first = positions.first, let last = positions.last else { return }
            for row in positions {
                for column in positions where ![(first, first), (first, last), (last, first)].contains(where: { $0 == (row, column) }) {
                    for dr in -2...2 {
                        for dc in -2...2 {
                            setFunction(row + dr, column + dc, dark: max(abs(dr), abs(dc)) != 1)
                        }
                    }
                }
            }
        }

        /// The 15 bits of format information: the level's two bits and the mask's three, then
        /// ten bits of BCH(15,5) error correction (generator x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1),
        /// all XORed with 101010000010010 so the bits are never all light.
        static func formatBits(correction: ErrorCorrection, mask: Int) -> Int {
            let data = correction.formatBits << 3 | mask
            return (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412
        }

        /// From version 7, 18 bits of version information: the version's six bits, then twelve of
        /// BCH(18,6) error correction (generator x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1).
        static func versionBits(version: Int) -> Int {
            version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12)
        }

        /// `value` modulo `generator`, as polynomials over GF(2).
        static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
            var remainder = value
            for bit in (degree..<32).reversed() where remainder >> bit & 1 == 1 {
                remainder ^= generator << (bit - degree)
            }
            return remainder
        }

        /// Two copies, so a smudge on one leaves the other: bits 0–5 down column 8 from the top,
        /// bits 6–8 around the top-left finder's corner (skipping the timing modules) and bits
        /// 9–14 along row 8 leftwards to the edge; and bits 0–7 along row 8 leftwards from the
        /// right edge, bits 8–14 down column 8 to the bottom edge. The module above that second
        /// run is always dark.
        mutating func drawFormatInformation(correction: ErrorCorrection, mask: Int) {
            let bits = Self.formatBits(correction: correction, mask: mask)
            func bit(_ number: Int) -> Bool { bits >> number & 1 == 1 }
            // Around the top-left finder.
            for number in 0...5 { setFunction(number, 8, dark: bit(number)) }
            setFunction(7, 8, dark: bit(6))
            setFunction(8, 8, dark: bit(7))
            setFunction(8, 7, dark: bit(8))
            for number in 9...14 { setFunction(8, 14 - number, dark: bit(number)) }
            // Beside the top-right and bottom-left finders.
            for number in 0...7 { setFunction(8, size - 1 - number, dark: bit(number)) }
            for number in 8...14 { setFunction(size - 15 + number, 8, dark: bit(number)) }
            setFunction(size - 8, 8, dark: true)
        }

        /// From version 7, two copies of the version information: a 6 × 3 block left of the
        /// top-right finder and its transpose above the bottom-left finder, bit 0 first.
        private mutating func drawVersionInformation() {
            guard version >= 7 else { return }
            let bits = Self.versionBits(version: version)
            for number in 0..<18 {
                let isDark = bits >> number & 1 == 1
                let (along, across) = (number / 3, size - 11 + number % 3)
                setFunction(along, across, dark: isDark)
                setFunction(across, along, dark: isDark)
            }
        }

        /// The codewords' bits, most significant first, in two-module-wide columns from the
        /// right edge, up the first, down the next and so on, right module before left, skipping
        /// function modules and the vertical timing column. Modules left over are remainder bits,
        /// light.
        mutating func place(_ codewords: [UInt8]) {
            let bitCount = codewords.count * 8
            var bitNumber = 0
            var right = size - 1
            var upward = true
            while right > 0 {
                if right == 6 { right = 5 }
                for step in 0..<size {
                    let row = upward ? size - 1 - step : step
                    for column in [right, right - 1] where !isFunction[index(row, column)] {
                        if bitNumber < bitCount {
                            dark[index(row, column)] = codewords[bitNumber / 8] >> (7 - bitNumber % 8) & 1 == 1
                        }
                        bitNumber += 1
                    }
                }
                upward.toggle()
                right -= 2
            }
            assert(bitNumber / 8 == codewords.count, "version \(version) has \(bitNumber) data modules for \(codewords.count) codewords")
        }
    }
}
