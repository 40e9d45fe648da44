import Foundation

/// Room kept on the database's disk for the writes that free room: a file of zeros beside the
/// database, given up when such a write finds the disk full. Without it a full disk cannot be
/// emptied from the console — deleting rows writes to the write-ahead log first — and an admin
/// could not even sign in to try.
public struct DiskReserve: Sendable {
    public let path: String
    public let size: Int

    public init(path: String, size: Int = 16 << 20) {
        self.path = path
        self.size = size
    }

    /// True while the room is set aside.
    public var isHeld: Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil) == size
    }

    /// Sets the room aside when it is not, if the disk has it and as much again to spare, so
    /// taking it back never fills the disk itself. Answers whether it is held; never throws.
    @discardableResult
    public func hold() -> Bool {
        if isHeld { return true }
        let folder = (path as NSString).deletingLastPathComponent
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder.isEmpty ? "." : folder))?[.systemFreeSize] as? Int,
              free >= 2 * size else { return false }
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // posix_fallocate makes the blocks real: a sparse file would reserve nothing.
        guard posix_fallocate(descriptor, 0, off_t(size)) == 0 else {
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
