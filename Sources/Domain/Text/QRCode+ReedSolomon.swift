extension QRCode {
    /// The error-correction codewords of one block (ISO/IEC 18004 7.5.2): the remainder of the
    /// block's data, as a polynomial over GF(256) times x^degree, divided by the generator
    /// polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)). A reader that finds the codewords no longer
    /// divisible can locate and repair up to degree / 2 wrong codewords from that remainder.
    enum ReedSolomon {
        /// α^i for i in 0..<255, in the field QR codes use: bytes as polynomials over GF(2),
        /// reduced by x⁸ + x⁴ + x³ + x² + 1 (0x11D), with α = x (2).
        static let powers: [UInt8] = {
            var powers: [UInt8] = []
            var value = 1
            for _ in 0..<255 {
                powers.append(UInt8(value))
                value <<= 1
                if value & 0x100 != 0 { value ^= 0x11D }
            }
            return powers
        }()

        /// The exponent i with α^i = value, for every value but 0.
        static let logarithms: [Int] = {
            var logarithms = [Int](repeating: 0, count: 256)
            for (exponent, value) in powers.enumerated() { logarithms[Int(value)] = exponent }
            return logarithms
        }()

        static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            if a == 0 || b == 0 { return 0 }
            return powers[(logarithms[Int(a)] + logarithms[Int(b)]) % 255]
        }

        /// The generator polynomial's coefficients, highest power first (the first is 1).
        static func generator(degree: Int) -> [UInt8] {
            var coefficients: [UInt8] = [1]
            for exponent in 0..<degree {
                // Times (x + α^exponent); in GF(2⁸) minus is plus.
                var product = coefficients + [0]
                for (index, coefficient) in coefficients.enumerated() {
                    product[index + 1] ^= multiply(coefficient, powers[exponent])
                }
                coefficients = product
            }
            return coefficients
        }

        /// The `degree` error-correction codewords of `data`, by long division.
        static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
            let generator = generator(degree: degree)
            var remainder = [UInt8](repeating: 0, count: degree)
            for codeword in data {
                let factor = codeword ^ remainder[0]
                remainder.removeFirst()
                remainder.append(0)
                for index in 0..<degree {
                    remainder[index] ^= multiply(generator[index + 1], factor)
                }
            }
            return remainder
        }
    }
}
