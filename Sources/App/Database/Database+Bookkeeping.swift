import Storage

extension Database {
    /// A write that only records use — a session's last request, a token's or a device's last
    /// check-in — skipped when the disk is full, so people go on reading and devices go on
    /// checking in while an admin frees space. It is tried again the next time it is due.
    func writeBookkeeping(_ body: (Connection) throws -> Void) async throws {
        do { try await write(body) } catch StorageError.full {}
    }

    /// A write that must work on a full disk — deleting logs, which frees room, and signing
    /// in to do it: when the disk is full it gives up the reserve (`DiskReserve`) and tries
    /// once more. The reserve is set aside again once the disk has room (`holdReserve`).
    func writeFreeingRoom<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        do { return try await write(body) } catch StorageError.full {
            guard let reserve, reserve.release() else { throw StorageError.full() }
            return try await write(body)
        }
    }
}
