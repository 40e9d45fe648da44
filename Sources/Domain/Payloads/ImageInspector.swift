/// Reads an image's type and size from its bytes, never trusting a file name or a declared type.
public enum ImageInspector {
    public static func inspect(_ bytes: [UInt8]) -> (mediaType: String, width: Int, height: Int)? {
        png(bytes) ?? jpeg(bytes)
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// PNG: the 8-byte signature, then the IHDR chunk with width and height.
    private static func png(_ bytes: [UInt8]) -> (String, Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8),
              let width = bigEndian(bytes, 16, 4), let height = bigEndian(bytes, 20, 4), width > 0, height > 0
        else { return nil }
        return ("image/png", width, height)
    }

    /// JPEG: walk the markers after SOI to the first start-of-frame, which holds the size.
    private static func jpeg(_ bytes: [UInt8]) -> (String, Int, Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            guard let length = bigEndian(bytes, offset + 2, 2), length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard let height = bigEndian(bytes, offset + 5, 2), let width = bigEndian(bytes, offset + 7, 2),
                      width > 0, height > 0 else { return nil }
                return ("image/jpeg", width, height)
            }
            offset += 2 + length
        }
        return nil
    }
}
