import Domain
import Storage
import Synchronization

/// Decoded payloads of profile versions, kept by the version's UUID.
///
/// A version never changes once written, so an entry can never go stale; keying by the UUID
/// (unique and random) rather than the row id means a deleted version's entry is simply never
/// asked for again. Decoding a version's JSON was most of the cost of every effective-policy
/// computation — the device page, a profile's conflict check, and each device check-in.
final class ProfileContentCache: Sendable {
    private let entries = Mutex<[String: ProfileContent]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The contents of the versions with these UUIDs, reading only the ones not yet cached.
    func contents(ofVersions uuids: some Collection<String>, in connection: Connection) throws -> [String: ProfileContent] {
        var found: [String: ProfileContent] = [:]
        var missing: [String] = []
        entries.withLock { entries in
            for uuid in uuids {
                if let content = entries[uuid] { found[uuid] = content } else { missing.append(uuid) }
            }
        }
        guard !missing.isEmpty else { return found }
        let loaded = try connection.fetch(StoredContent.self, "SELECT uuid, content FROM profile_versions WHERE uuid IN (\(list: missing))")
        entries.withLock { entries in
            // Simplest bound that cannot grow without limit: start over when full. The working
            // set (versions assigned to groups) is far smaller than the capacity.
            if entries.count + loaded.count > capacity { entries.removeAll(keepingCapacity: true) }
            for version in loaded { entries[version.uuid] = version.content }
        }
        for version in loaded { found[version.uuid] = version.content }
        return found
    }

    private struct StoredContent: Decodable {
        let uuid: String
        let content: ProfileContent
    }
}
