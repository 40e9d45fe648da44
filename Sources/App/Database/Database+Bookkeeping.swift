import Storage

extension Database {
    /// A write that only records use — a session's last request, a token's or a device's last
    /// check-in — skipped when the disk is full, so people go on reading and devices go on
    /// checking in while an admin frees space. It is tried again the next time it is due.
    func writeBookkeeping(_ body: (Connection) throws -> Void) async throws {
        do { try await write(body) } catch StorageError.full {}
    }
}
