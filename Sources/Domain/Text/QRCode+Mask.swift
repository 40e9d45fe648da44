extension QRCode {
    /// Whether mask `number` flips the module at `row`, `column` (ISO/IEC 18004 table 10). A mask
    /// flips data modules in a regular pattern so that no text leaves large light or dark areas,
    /// or shapes a reader could take for a finder.
    static func maskFlips(_ number: Int, row: Int, column: Int) -> Bool {
        switch number {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: (row * column) % 2 + (row * column) % 3 == 0
        case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
        default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
        }
    }
}

extension QRCode.Matrix {
    /// The symbol under each of the eight masks, with that mask's format information drawn, and
    /// the one with the fewest penalty points (the lower number on a tie). The standard scores
    /// "the complete symbol" (ISO/IEC 18004:2015 7.8.3.1), so the format information, version
    /// information and dark module are in place while scoring.
    func bestMasked(correction: QRCode.ErrorCorrection) -> (mask: Int, modules: [Bool]) {
        var best: (mask: Int, modules: [Bool], penalty: Int)?
        for mask in 0..<8 {
            var candidate = self
            candidate.drawFormatInformation(correction: correction, mask: mask)
            for row in 0..<size {
                for column in 0..<size where !isFunction[index(row, column)] && QRCode.maskFlips(mask, row: row, column: column) {
                    candidate.dark[index(row, column)].toggle()
                }
            }
            let penalty = QRCode.penalty(candidate.dark, size: size)
            if best == nil || penalty < best!.penalty { best = (mask, candidate.dark, penalty) }
        }
        return (best!.mask, best!.modules)
    }
}

extension QRCode {
    /// Penalty points of a symbol (ISO/IEC 18004:2015 table 11), more for features that make it
    /// harder to read:
    /// - N1, 3 + (n − 5) for each run of n ≥ 5 modules of one colour in a row or column;
    /// - N2, 3 for each 2 × 2 block of one colour (overlapping blocks each count, which is the
    ///   standard's 3 × (m − 1) × (n − 1) for an m × n block);
    /// - N3, 40 for each dark-light-dark-dark-dark-light-dark run in a row or column with four
    ///   light modules before or after it (outside the symbol is the light quiet zone); one
    ///   such run counts once, whether light lies on one side or both, and runs are counted
    ///   from the start of the line without reusing a counted run's modules (in
    ///   1011101011101 with light around, one run counts, not two);
    /// - N4, 10 × k when dark modules are between 50 ± 5k % and 50 ± 5(k + 1) % of the symbol.
    static func penalty(_ dark: [Bool], size: Int) -> Int {
        // Unchecked reads: this runs eight times per code over every module, and with bounds
        // checks a version 40 code took a third of a second in a debug build.
        dark.withUnsafeBufferPointer { modules in
            var points = 0
            for line in 0..<size {
                points += linePenalty(modules, first: line * size, step: 1, count: size)
                points += linePenalty(modules, first: line, step: size, count: size)
            }
            var darkCount = 0
            for row in 0..<size {
                for column in 0..<size {
                    let index = row * size + column
                    let colour = modules[index]
                    if colour { darkCount += 1 }
                    if row + 1 < size && column + 1 < size && modules[index + 1] == colour
                        && modules[index + size] == colour && modules[index + size + 1] == colour {
                        points += 3
                    }
                }
            }
            let total = size * size
            return points + 10 * (abs(20 * darkCount - 10 * total) / total)
        }
    }

    /// N1 and N3 for the `count` modules from `first`, `step` apart: a row (step 1) or a column
    /// (step `size`).
    static func linePenalty(_ modules: UnsafeBufferPointer<Bool>, first: Int, step: Int, count: Int) -> Int {
        var points = 0
        var runLength = 0
        for position in 0..<count {
            if position > 0 && modules[first + position * step] == modules[first + (position - 1) * step] {
                runLength += 1
            } else {
                if runLength >= 5 { points += runLength - 2 }
                runLength = 1
            }
        }
        if runLength >= 5 { points += runLength - 2 }

        func isDark(_ position: Int) -> Bool {
            position >= 0 && position < count && modules[first + position * step]
        }
        func isLight(_ positions: Range<Int>) -> Bool {
            !positions.contains(where: isDark)
        }
        var start = 0
        while start + 7 <= count {
            let finderLike = isDark(start) && !isDark(start + 1) && isDark(start + 2) && isDark(start + 3)
                && isDark(start + 4) && !isDark(start + 5) && isDark(start + 6)
            if finderLike && (isLight(start - 4..<start) || isLight(start + 7..<start + 11)) {
                points += 40
                start += 7
            } else {
                start += 1
            }
        }
        return points
    }
}
