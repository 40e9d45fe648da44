import Foundation

/// A console serving an SQLite file says so with a shared `flock` on a file beside it
/// (`<file>-serving`), held as long as the process lives — the kernel drops it when the
/// process ends, however it ends, so a killed console leaves no stale mark. Work that must
/// not run beside a serving console (`payload-console copy`) asks for the lock exclusively
/// and is refused while any console holds it.
public final class ServingMark: @unchecked Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Marks `databasePath` as served by this process until the mark is released.
    public static func hold(_ databasePath: String) throws -> ServingMark {
        let descriptor = try open(databasePath)
        guard flock(descriptor, LOCK_SH) == 0 else {
            close(descriptor)
            throw StorageError.io(message: "could not mark \(databasePath) as served: \(String(cString: strerror(errno)))")
        }
        return ServingMark(descriptor: descriptor)
    }

    /// Whether a console is serving `databasePath` now. A file nobody ever served is not.
    public static func isServed(_ databasePath: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: markPath(databasePath)) else { return false }
        let descriptor = try open(databasePath)
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    static func markPath(_ databasePath: String) -> String {
        databasePath + "-serving"
    }

    private static func open(_ databasePath: String) throws -> Int32 {
        let descriptor = Foundation.open(markPath(databasePath), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError.io(message: "could not open \(markPath(databasePath)): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
