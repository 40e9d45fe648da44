import Foundation

/// Sizes as the log pages state them: "200 MB", "9.8 KB".
enum ByteCountText {
    /// Whole megabytes as such, other sizes to a tenth; below a megabyte in kilobytes, and
    /// below a kilobyte in bytes (a line or two would otherwise read "0.0 KB").
    static func megabytes(_ bytes: Int) -> String {
        if bytes < 1 << 10 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KB", Double(bytes) / 1024) }
        return bytes % (1 << 20) == 0 ? "\(bytes >> 20) MB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}
