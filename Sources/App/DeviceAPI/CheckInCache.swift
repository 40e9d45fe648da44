import Domain
import Foundation
import NIOCore
import Signing
import Storage
import Synchronization

/// What a device in a group gets at check-in: the answer, encoded once, and its tag (the ETag).
struct PolicyDocument: Sendable {
    /// nil when Single App Mode conflicts: the device keeps what it has.
    let policy: DevicePolicy?
    let answer: PolicyAnswer
    /// The apps of a Single App Mode conflict; empty when there is none.
    var conflict: [String] { answer.conflict }
    /// `answer` encoded, ready to send: made once, shared by every check-in (copy-on-write).
    let buffer: ByteBuffer
    let tag: String
    /// The console's organisation name, which the `.mobileconfig` form carries.
    let organisation: String

    /// The `.mobileconfig` form's tag: the policy's, and the organisation only that form names
    /// (worked out once per document, not at every check-in).
    let mobileConfigTag: String
}

/// Check-in answers by group, valid for one policy generation.
///
/// Every device in a group gets the same policy, and it changes only when the database's
/// `policy_generation` moves (triggers bump it on assignments, profile versions and group
/// nesting). So a check-in costs one indexed read plus, at most once per group and change, a
/// policy computation — the rest is a dictionary lookup.
final class CheckInCache: Sendable {
    private struct State {
        var generation: Int64 = -1
        var documents: [Int64: PolicyDocument] = [:]
    }

    private let state = Mutex(State())
    private let contents: ProfileContentCache

    init(contents: ProfileContentCache) {
        self.contents = contents
    }

    /// The key for devices in no group.
    private static let noGroup: Int64 = 0

    func document(group: RecordID<DeviceGroupRecord>?, generation: Int64, database: Database) async throws -> PolicyDocument {
        let key = group?.rawValue ?? Self.noGroup
        let cached: PolicyDocument? = state.withLock { state in
            if state.generation != generation {
                state.generation = generation
                state.documents.removeAll(keepingCapacity: true)
            }
            return state.documents[key]
        }
        if let cached { return cached }
        let document = try await database.read { connection in try Self.compute(group: group, connection: connection, contents: contents) }
        state.withLock { state in
            if state.generation == generation { state.documents[key] = document }
        }
        return document
    }

    static func compute(group: RecordID<DeviceGroupRecord>?, connection: Connection, contents: ProfileContentCache) throws -> PolicyDocument {
        let effective = try PolicyLoader(connection: connection, cache: contents).effectivePolicy(group: group)
        let policy = DevicePolicy(effective)
        let answer = PolicyAnswer(payloads: try (policy?.payloads ?? []).map(PayloadDocument.init),
                                  conflict: effective.conflictApps, warnings: effective.warnings)
        let body = Array(try answer.encodedJSON())
        // The tag covers exactly what the device receives, so equal bodies share a tag.
        let tag = String(SHA256Digest.hex(of: body).prefix(32))
        let organisation = try ConsoleSettings.load(from: connection).organisationName
        return PolicyDocument(policy: policy, answer: answer, buffer: ByteBuffer(bytes: body), tag: tag,
                              organisation: organisation, mobileConfigTag: tag + "-mc" + String(SHA256Digest.hex(of: Array(organisation.utf8)).prefix(8)))
    }
}
