import CZlib

/// Inflating gzip request bodies (devices compress log uploads), with a ceiling on the inflated
/// size so a small "zip bomb" cannot make the console allocate gigabytes.
enum Gzip {
    enum Failure: Error, Equatable {
        /// The inflated body would be larger than the limit.
        case tooLarge
        /// Not gzip, or cut short.
        case corrupt
        /// Bytes after the last gzip member that are not another member.
        case trailingBytes
    }

    /// Every member of the body, inflated and joined, as `gzip -d` reads a concatenation
    /// (`cat a.gz b.gz`). Bytes after the last member that do not start another are refused:
    /// acknowledging what was read of a body while ignoring the rest would lose lines silently.
    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // 15 window bits + 16: gzip framing only (a raw zlib body is not what the header said).
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        try compressed.withUnsafeBufferPointer { (source: UnsafeBufferPointer<UInt8>) throws(Failure) in
            // zlib's header lacks `const` on next_in; inflate only reads it.
            stream.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.avail_in = UInt32(source.count)
            while true {
                let produced = chunk.withUnsafeMutableBufferPointer { target -> Int in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else { throw .corrupt }
                guard output.count + produced <= limit else { throw .tooLarge }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END {
                    guard stream.avail_in > 0 else { break }
                    // Another member follows only if it starts with gzip's magic bytes.
                    let next = source.count - Int(stream.avail_in)
                    guard stream.avail_in >= 2, source[next] == 0x1F, source[next + 1] == 0x8B else { throw .trailingBytes }
                    guard inflateReset(&stream) == Z_OK else { throw .corrupt }
                    continue
                }
                // No progress with input left means the stream is cut short.
                if produced == 0 && stream.avail_in == 0 { throw .corrupt }
            }
        }
        return output
    }
}
