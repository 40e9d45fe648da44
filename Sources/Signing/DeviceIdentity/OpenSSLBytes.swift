import COpenSSL
import Foundation

/// Bridges between Swift bytes and OpenSSL's encodings that never throw: device input is
/// hostile, so every step answers nil and the caller names the error in the admin's words.
enum OpenSSLBytes {
    /// OpenSSL's two-call `i2d_` pattern: the length first, then the bytes.
    static func encoded(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? bytes : nil
    }

    /// A `d2i_` that must consume every byte: trailing bytes mean the input is something else.
    static func decoded<T>(
        _ bytes: [UInt8], _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> T?, free: (T) -> Void
    ) -> T? {
        guard !bytes.isEmpty else { return nil }
        let (value, consumed): (T?, Int) = bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return (nil, 0) }
            var cursor: UnsafePointer<UInt8>? = start
            let value = decode(&cursor, buffer.count)
            return (value, cursor.map { $0 - start } ?? 0)
        }
        guard let value else { ERR_clear_error(); return nil }
        guard consumed == bytes.count else { free(value); return nil }
        return value
    }

    /// A memory BIO holding a copy of `bytes` that reads as ended (not "retry") when empty.
    /// The caller frees it with `BIO_free`.
    static func bio(holding bytes: [UInt8]) -> OpaquePointer? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        BIO_ctrl(bio, BIO_C_SET_BUF_MEM_EOF_RETURN, 0, nil)
        let written = bytes.isEmpty ? 0 : bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else { BIO_free(bio); return nil }
        return bio
    }

    /// An empty memory BIO to write into; the caller frees it with `BIO_free`.
    static func emptyBIO() -> OpaquePointer? { bio(holding: []) }

    /// Everything a memory BIO holds.
    static func contents(of bio: OpaquePointer) -> [UInt8] {
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_bio_get_mem_data(bio, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The bytes of an ASN.1 string (any string type, or an OCTET STRING).
    static func bytes(of string: UnsafePointer<ASN1_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        let length = Int(ASN1_STRING_length(string))
        guard length >= 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// A time OpenSSL can take (`time_t`), whole seconds.
    static func time(_ date: Date) -> time_t { time_t(date.timeIntervalSince1970.rounded(.down)) }

    /// Lower-case hex without separators, as serial numbers are shown and stored.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

    /// Random bytes from OpenSSL's generator; nil only when it is not seeded.
    static func random(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        return RAND_bytes(&bytes, Int32(count)) == 1 ? bytes : nil
    }
}
