import Foundation

/// Room kept on the database's disk for the writes that free room: a file of zeros beside the
/// database, given up when such a write finds the disk full. Without it a full disk cannot be
/// emptied from the console — deleting rows writes to the write-ahead log first — and an admin
/// could not even sign in to try.
public struct DiskReserve: Sendable {
    public let path: String
    /// The room set aside on a disk that has it twice over.
    public let size: Int
    /// Less than this is not worth setting aside.
    public let smallest: Int

    public init(path: String, size: Int = 16 << 20, smallest: Int = 1 << 20) {
        self.path = path
        self.size = size
        self.smallest = smallest
    }

    /// True while some room is set aside.
    public var isHeld: Bool {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return bytes > 0
    }

    /// Sets room aside when none is, if the disk has it: `size` on a disk with twice that free,
    /// and on a smaller one a quarter of what is free (at least `smallest`), so a small disk
    /// keeps some room too and taking it never fills the disk itself. Answers whether room is
    /// held; never throws.
    @discardableResult
    public func hold() -> Bool {
        if isHeld { return true }
        let folder = (path as NSString).deletingLastPathComponent
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder.isEmpty ? "." : folder))?[.systemFreeSize] as? Int else { return false }
        let room = free >= 2 * size ? size : min(size, free / 4)
        guard room >= smallest else { return false }
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // posix_fallocate makes the blocks real: a sparse file would reserve nothing.
        guard posix_fallocate(descriptor, 0, off_t(room)) == 0 else {
            unlink(path)
            return false
        }
        return true
    }

    /// Gives the room back to the disk; answers whether there was any to give.
    public func release() -> Bool {
        unlink(path) == 0
    }
}
