import COpenSSL

/// SHA-256 from the system OpenSSL we already link for CMS signing, so the console does not
/// compile a second copy of a crypto library just to hash session tokens.
public enum SHA256Digest {
    /// The 32 bytes of the digest.
    public static func bytes(of bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = input.withUnsafeBytes { source in
            EVP_Digest(source.baseAddress, source.count, &output, &length, EVP_sha256(), nil) == 1
        }
        // EVP_Digest with a built-in algorithm fails only when memory is exhausted.
        precondition(succeeded, "OpenSSL could not compute SHA-256")
        return Array(output.prefix(Int(length)))
    }

    public static func hex(of bytes: some Collection<UInt8>) -> String {
        let output = self.bytes(of: bytes)
        let length = output.count
        // Built as bytes in one go: this runs on every device check-in and API call.
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8](repeating: 0, count: Int(length) * 2)
        for (index, byte) in output.prefix(Int(length)).enumerated() {
            hex[index * 2] = digits[Int(byte >> 4)]
            hex[index * 2 + 1] = digits[Int(byte & 0x0f)]
        }
        return String(decoding: hex, as: UTF8.self)
    }

    public static func hex(of text: String) -> String { hex(of: Array(text.utf8)) }
}
