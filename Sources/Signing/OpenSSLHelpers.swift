import COpenSSL

/// Small bridges between Swift values and OpenSSL's memory BIOs.
enum MemoryBIO {
    /// A read-only BIO over `bytes`, valid while `body` runs.
    static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw SigningError.io("out of memory")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Runs `body` with an empty memory BIO and returns what it wrote.
    static func writing(_ body: (OpaquePointer) throws -> Void) throws -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw SigningError.io("out of memory") }
        defer { BIO_free(bio) }
        try body(bio)
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_bio_get_mem_data(bio, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }
}
